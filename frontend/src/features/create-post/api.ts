/**
 * The four create calls (spec §7 Posts, docs/posts.md): the wire bodies, with the spec's field
 * names, sent through uploadPost for real progress.
 */
import type { components } from '../../lib/api-schema';
import { uploadPost } from './upload';
import {
  AUDIO_MESSAGES,
  DEFAULT_ARTIST,
  LYRICS_MESSAGES,
  MEDIA_MESSAGES,
  SCORE_MESSAGES,
  fileStem,
  valueToSend,
  type PartType,
} from './validation';

/** How a send reports progress and is cancelled (see UploadRequest). */
export interface SendOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface AudioTrackInput {
  file: File;
  title: string;
  artist: string;
}

/**
 * POST /posts/audio: `audio_files`, `titles`, `artists` (one each per file, in order) and
 * `caption`, and `genre` when one was chosen. A title or artist still at the page's default goes as '' so that the server can
 * take the file's own tags first (it falls back to the same defaults).
 */
export function createAudioPost(tracks: readonly AudioTrackInput[], caption: string, options: SendOptions = {}, genre = '') {
  const form = new FormData();
  form.append('caption', caption.trim());
  if (genre) form.append('genre', genre);
  for (const t of tracks) form.append('titles', valueToSend(t.title, fileStem(t.file.name)));
  for (const t of tracks) form.append('artists', valueToSend(t.artist, DEFAULT_ARTIST));
  for (const t of tracks) form.append('audio_files', t.file, t.file.name);
  return uploadPost({ path: '/posts/audio', body: { form }, failureMessage: AUDIO_MESSAGES.failed, ...options });
}

export interface ScoreInput {
  file: File;
  title: string;
  composer: string;
}

/**
 * POST /posts/musicxml: `musicxml_files`, `titles`, `composers` (in order) and `caption`, each
 * title and composer as the form shows it (issue 34: the form reads the score's own), so that
 * what is published is what was shown.
 */
export function createMusicXmlPost(scores: readonly ScoreInput[], caption: string, options: SendOptions = {}) {
  const form = new FormData();
  form.append('caption', caption.trim());
  for (const s of scores) form.append('titles', s.title.trim());
  for (const s of scores) form.append('composers', s.composer.trim());
  for (const s of scores) form.append('musicxml_files', s.file, s.file.name);
  return uploadPost({ path: '/posts/musicxml', body: { form }, failureMessage: SCORE_MESSAGES.failed, ...options });
}

/** POST /posts/media: `files` (in order) and `caption`. */
export function createMediaPost(files: readonly File[], caption: string, options: SendOptions = {}) {
  const form = new FormData();
  form.append('caption', caption.trim());
  for (const file of files) form.append('files', file, file.name);
  return uploadPost({ path: '/posts/media', body: { form }, failureMessage: MEDIA_MESSAGES.failed, ...options });
}

/**
 * The JSON body of POST /posts/lyrics (spec §3 Lyrics post, plus the optional caption): the
 * generated type, with the part types this app offers (the server reads any and refuses
 * unknown ones).
 */
export type LyricsPostJson = components['schemas']['LyricsPostJson'] & {
  parts: Array<{ type: PartType; lyrics: string }>;
};

export function createLyricsPost(body: LyricsPostJson, options: SendOptions = {}) {
  return uploadPost({ path: '/posts/lyrics', body: { json: body }, failureMessage: LYRICS_MESSAGES.failed, ...options });
}
