/**
 * Wire types of the posts area (spec §3 Post; docs/posts.md) and the displayed models
 * the screens show (spec §3 "Displayed post model"). Wire data is turned into display data once,
 * in transform.ts.
 */
import type { AudioItem } from '../player';

/** An audio post's track: the player's to show and play (features/player). */
export type { AudioItem };

export type PostType = 'media' | 'audio' | 'musicxml' | 'lyrics';

export interface PostUserJson {
  id: string;
  login: string | null;
  name: string | null;
  tag_id: string | null;
  role?: string | null;
  avatar_url: string | null;
}

export interface MediaItemJson {
  id: string;
  file_url: string;
  /** 'image' or 'video'; anything else is treated as video (spec §3). */
  file_type: string;
  width?: number | null;
  height?: number | null;
  poster_url?: string | null;
  /** A JPEG about 640 px wide for feeds; the original is `file_url`. */
  display_url?: string | null;
}

export interface AudioItemJson {
  title: string | null;
  artist: string | null;
  cover_url: string | null;
  /** m:ss */
  duration: string | null;
  duration_seconds?: number | null;
  file_url: string;
  /** base64 of signed 8-bit min,max pairs, one pair per bin; full scale ±127. */
  peaks?: string | null;
}

export interface MusicXmlItemJson {
  title: string | null;
  composer: string | null;
  file_url: string;
}

export interface LyricsPartJson {
  type: string;
  lyrics: string;
}

export interface LyricsJson {
  title: string | null;
  artist: string | null;
  lyrics_text: string | null;
  parts?: LyricsPartJson[] | null;
}

export interface PostJson {
  id: string;
  type: string;
  caption: string | null;
  created_at: string;
  likes_count: number;
  comments_count: number;
  /** true, 1, 'true' or '1' count as liked (spec §3). */
  user_liked: boolean | number | string | null;
  user: PostUserJson;
  media?: MediaItemJson[] | null;
  audio?: AudioItemJson[] | null;
  musicxml?: MusicXmlItemJson[] | null;
  lyrics?: LyricsJson | null;
}

/** POST /posts/{id}/like */
export interface LikeJson {
  liked?: boolean;
  user_liked?: boolean;
  likes_count?: number;
}

// ---------------------------------------------------------------------------------------------
// Displayed models (spec §3)

export interface MediaItem {
  id: string;
  /** The original, for the full-size overlay. */
  src: string;
  /** What a feed card shows (the display copy of an image). */
  displaySrc: string;
  type: 'image' | 'video';
  width: number | null;
  height: number | null;
  poster: string | null;
}

export interface MusicXmlItem {
  fileName: string;
  composer: string;
  downloadUrl: string;
}

export interface LyricsContent {
  title: string;
  artist: string;
  lyricsText: string;
  parts: LyricsPartJson[];
}

interface DisplayPostBase {
  id: string;
  userId: string;
  username: string;
  displayName: string;
  /** The author's tag id (RoleBadge shows Listener for unknown ids). */
  role: string | null;
  avatarUrl: string | null;
  /** ISO time; components show it relative (spec §4). */
  createdAt: string;
  likes_count: number;
  comments_count: number;
  user_liked: boolean;
  caption: string | null;
}

export type DisplayPost =
  | (DisplayPostBase & { type: 'media'; content: MediaItem[] })
  | (DisplayPostBase & { type: 'audio'; content: AudioItem[] })
  | (DisplayPostBase & { type: 'musicxml'; content: MusicXmlItem[] })
  | (DisplayPostBase & { type: 'lyrics'; content: LyricsContent });
