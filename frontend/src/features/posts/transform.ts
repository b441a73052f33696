/**
 * Wire posts (types.ts, docs/posts.md) turned once into what the screens show (spec §3
 * "Displayed post model"). A post of an unsupported type or without its payload is dropped
 * (null), as spec §3 says feeds do. The input is `PostInput`, the generated `PostJson` read
 * leniently: every payload below is a part of it.
 */
import { formatDuration } from '../../lib/format';
import { toLoudness, toStreams } from '../player';
import type { AudioItem, DisplayPost, LyricsContent, LyricsPartJson, MediaItem, MusicXmlItem, PostInput, RepostedBy } from './types';

type MediaInput = NonNullable<PostInput['media']>[number];
type AudioInput = NonNullable<PostInput['audio']>[number];
type ScoreInput = NonNullable<PostInput['musicxml']>[number];
type LyricsInput = PostInput['lyrics'];

/** Spec §3 defaults. */
export const POST_DEFAULTS = {
  duration: '0:00',
  artist: 'Unknown Artist',
  title: 'Untitled',
  composer: 'Unknown Composer',
} as const;

/** true, 1, 'true' and '1' count as liked (spec §3); anything else does not. */
export function isLiked(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

/**
 * The waveform of an audio item: base64 of signed 8-bit min,max pairs (docs/posts.md). Null when
 * there is none, it is not base64, or it holds no whole pair; a trailing odd byte is dropped.
 */
export function decodePeaks(b64: string | null | undefined): Int8Array | null {
  if (typeof b64 !== 'string' || b64 === '') return null;
  let binary: string;
  try {
    binary = atob(b64);
  } catch {
    return null;
  }
  const length = binary.length - (binary.length % 2);
  if (length === 0) return null;
  const peaks = new Int8Array(length);
  for (let i = 0; i < length; i += 1) peaks[i] = binary.charCodeAt(i) << 24 >> 24;
  return peaks;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function count(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

function url(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function size(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function toMediaItem(json: MediaInput): MediaItem | null {
  const src = url(json?.file_url);
  if (!src) return null;
  return {
    id: String(json.id ?? src),
    src,
    displaySrc: url(json.display_url) ?? src,
    // Spec §3: anything but 'image' is treated as video.
    type: json.file_type === 'image' ? 'image' : 'video',
    width: size(json.width),
    height: size(json.height),
    poster: url(json.poster_url),
  };
}

function toAudioItem(json: AudioInput): AudioItem | null {
  const fileUrl = url(json?.file_url);
  if (!fileUrl) return null;
  const seconds = typeof json.duration_seconds === 'number' && Number.isFinite(json.duration_seconds) ? json.duration_seconds : null;
  return {
    title: text(json.title) || POST_DEFAULTS.title,
    artist: text(json.artist) || POST_DEFAULTS.artist,
    coverUrl: url(json.cover_url),
    duration: text(json.duration) || (seconds !== null ? formatDuration(seconds) : POST_DEFAULTS.duration),
    durationSeconds: seconds,
    url: fileUrl,
    streams: toStreams(json.renditions),
    peaks: decodePeaks(json.peaks),
    loudness: toLoudness(json.loudness),
  };
}

function toMusicXmlItem(json: ScoreInput): MusicXmlItem | null {
  const fileUrl = url(json?.file_url);
  if (!fileUrl) return null;
  return {
    fileName: text(json.title) || POST_DEFAULTS.title,
    // No composer, or the spec's stand-in for none, shows nothing (issue 34).
    composer: text(json.composer).replace(/^Unknown Composer$/, ''),
    downloadUrl: fileUrl,
  };
}

function toParts(parts: unknown): LyricsPartJson[] {
  if (!Array.isArray(parts)) return [];
  return parts.filter(
    (p): p is LyricsPartJson =>
      typeof p === 'object' && p !== null && typeof (p as LyricsPartJson).lyrics === 'string',
  );
}

/** Parts joined for display, each after a `[Verse]`-style heading, as the server does. */
function joinParts(parts: LyricsPartJson[]): string {
  return parts
    .map((p) => {
      const type = text(p.type);
      const heading = type ? `[${type.charAt(0).toUpperCase()}${type.slice(1)}]\n` : '';
      return `${heading}${p.lyrics.trim()}`;
    })
    .join('\n\n');
}

function toLyrics(json: LyricsInput): LyricsContent | null {
  if (typeof json !== 'object' || json === null) return null;
  const parts = toParts(json.parts);
  return {
    title: text(json.title) || POST_DEFAULTS.title,
    artist: text(json.artist) || POST_DEFAULTS.artist,
    lyricsText: typeof json.lyrics_text === 'string' && json.lyrics_text.trim() !== '' ? json.lyrics_text : joinParts(parts),
    parts,
  };
}

/** The items of a list payload, or null when it is missing or holds nothing showable. */
function items<J, T>(list: J[] | null | undefined, map: (item: J) => T | null): T[] | null {
  if (!Array.isArray(list)) return null;
  const shown = list.map(map).filter((item): item is T => item !== null);
  return shown.length > 0 ? shown : null;
}

/** Who placed a post in Listened to by reposting it, when someone did. */
function repostedBy(json: PostInput['reposted_by']): RepostedBy | null {
  const user = json?.user;
  if (!json?.id || !user?.id) return null;
  return { id: String(json.id), userId: String(user.id), name: text(user.name) || text(user.login) };
}

/**
 * A wire post as the screens show it, or null when it cannot be shown: an unsupported type, a
 * missing payload, or a list payload with nothing playable or viewable in it.
 */
export function toDisplayPost(json: PostInput): DisplayPost | null {
  if (typeof json !== 'object' || json === null || json.id === undefined || json.id === null) return null;
  const user = typeof json.user === 'object' && json.user !== null ? json.user : null;
  const login = text(user?.login);
  const base = {
    id: String(json.id),
    userId: user ? String(user.id) : '',
    username: login,
    displayName: text(user?.name) || login,
    role: url(user?.tag_id) ?? url(user?.role),
    avatarUrl: url(user?.avatar_url),
    createdAt: typeof json.created_at === 'string' ? json.created_at : '',
    editedAt: typeof json.edited_at === 'string' && json.edited_at !== '' ? json.edited_at : null,
    likes_count: count(json.likes_count),
    comments_count: count(json.comments_count),
    plays_count: count(json.plays_count),
    reposts_count: count(json.reposts_count),
    user_reposted: json.user_reposted === true,
    repostedBy: repostedBy(json.reposted_by),
    user_liked: isLiked(json.user_liked),
    caption: text(json.caption) || null,
  };

  switch (json.type) {
    case 'media': {
      const content = items(json.media, toMediaItem);
      return content ? { ...base, type: 'media', content } : null;
    }
    case 'audio': {
      const content = items(json.audio, toAudioItem);
      return content ? { ...base, type: 'audio', content, genre: text(json.genre) || null } : null;
    }
    case 'musicxml': {
      const content = items(json.musicxml, toMusicXmlItem);
      return content ? { ...base, type: 'musicxml', content } : null;
    }
    case 'lyrics': {
      const content = toLyrics(json.lyrics);
      return content ? { ...base, type: 'lyrics', content } : null;
    }
    default:
      return null;
  }
}

/** The showable posts of a page (spec §3: the rest are dropped from feeds). */
export function toDisplayPosts(list: readonly PostInput[]): DisplayPost[] {
  return list.map(toDisplayPost).filter((post): post is DisplayPost => post !== null);
}
