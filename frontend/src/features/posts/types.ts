/**
 * Wire types of the posts area (spec §3 Post; docs/posts.md), generated from the server's OpenAPI
 * document (lib/api-schema.ts), and the displayed models the screens show (spec §3 "Displayed
 * post model"). Wire data is turned into display data once, in transform.ts.
 */
import type { components } from '../../lib/api-schema';
import type { Lenient } from '../../lib/lenient';
import type { AudioItem } from '../player';

/** An audio post's track: the player's to show and play (features/player). */
export type { AudioItem };

export type PostType = 'media' | 'audio' | 'musicxml' | 'lyrics';

/** A post as our server sends it; its payload is under the key named after its `type`. */
export type PostJson = components['schemas']['PostJson'];
export type LyricsPartJson = components['schemas']['LyricsPartJson'];
/** PATCH /posts/{id}: each field left out stays as it is (issue 19). */
export type PostEditJson = components['schemas']['PostEditJson'];
/** POST /posts/{id}/like */
export type LikeJson = components['schemas']['LikeJson'];
/** POST /posts/{id}/repost */
export type RepostJson = components['schemas']['RepostJson'];

/**
 * A post as transform.ts reads it (spec §3): any field may be missing or null (a post without
 * its payload is dropped, an author without a name shows the login), `user_liked` may be true,
 * 1, 'true' or '1', and a `type` other than the four is dropped.
 */
export type PostInput = Lenient<Omit<PostJson, 'user_liked'>> & { user_liked?: boolean | number | string | null };
/** A like's answer as `likeAnswer` reads it: `liked` or `user_liked`, a count when sent. */
export type LikeInput = Lenient<LikeJson>;

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
  /** ISO time of its author's last edit of its words; null if never edited. */
  editedAt: string | null;
  likes_count: number;
  comments_count: number;
  /** Counted plays of its tracks or scores, all together (issue 31); 0 for other kinds. */
  plays_count: number;
  /** How many people reposted it, and whether the viewer did (issue 31). */
  reposts_count: number;
  user_reposted: boolean;
  /** In Listened to: who reposted it there (the newest of the people listened to). */
  repostedBy: RepostedBy | null;
  user_liked: boolean;
  caption: string | null;
}

/** The repost that placed a post in Listened to: its id is where the feed's next page starts. */
export interface RepostedBy {
  id: string;
  userId: string;
  name: string;
}

export type DisplayPost =
  | (DisplayPostBase & { type: 'media'; content: MediaItem[] })
  | (DisplayPostBase & { type: 'audio'; content: AudioItem[]; genre: string | null })
  | (DisplayPostBase & { type: 'musicxml'; content: MusicXmlItem[] })
  | (DisplayPostBase & { type: 'lyrics'; content: LyricsContent });
