/**
 * Wire types of comments and mentions (spec §3 Comment; docs/posts.md), generated from the
 * server's OpenAPI document (lib/api-schema.ts), and the comment the list shows. Wire data is
 * turned into display data once, in transform.ts.
 */
import type { components } from '../../lib/api-schema';
import type { Lenient } from '../../lib/lenient';

export type CommentJson = components['schemas']['CommentJson'];
export type MentionJson = components['schemas']['MentionJson'];
/** GET /posts/users/search (the mention picker): a person card without the tag. */
export type MentionUserJson = components['schemas']['UserJson'];

/**
 * A comment as transform.ts reads it (spec §3 Comment): any field may be missing or null, the
 * author flat (`author_*`) or nested (`user`), the body under `content` or `text`.
 */
export type CommentInput = Lenient<CommentJson> & { text?: string | null };

// ---------------------------------------------------------------------------------------------
// Displayed model

export interface DisplayComment {
  id: string;
  content: string;
  createdAt: string;
  /** ISO time of its author's last edit; null if never edited. */
  editedAt: string | null;
  authorId: string;
  authorName: string;
  authorLogin: string;
  authorAvatarUrl: string | null;
  authorRole: string | null;
  mentions: Mention[];
  /** The moment of the post's track it is about (a timed comment), or null. */
  moment: CommentMoment | null;
}

/**
 * Where in a post a comment is: a moment of an audio post's track (which of its tracks, 0 for
 * the first, and how far into it in milliseconds: `track` and `at_ms` on the wire), or bars of a
 * sheet-music post's score (which score, and its first and last bar counted from 1: `track`,
 * `bar` and `bar_end`; issue 35).
 */
export type CommentMoment = { track: number; ms: number; bars?: undefined } | { track: number; bars: { from: number; to: number }; ms?: undefined };

/**
 * What the page showing the comments tells them of the post's player: where it is in one of the
 * post's tracks (asked when someone starts writing, not followed), and how to play a moment.
 * Given only for audio posts; without it, comments have no times.
 */
export interface MomentLink {
  /** What a comment's place is: a time of a track (when not given), or bars of a score. */
  kind?: 'time' | 'bars';
  /** The moment the player is at in one of this post's tracks, or null when it is on none. */
  current: () => CommentMoment | null;
  /** Plays the post's track from the moment. */
  play: (moment: CommentMoment) => void;
  /** The title of the post's track `track`, when the post has more than one (else null). */
  trackTitle: (track: number) => string | null;
}

/** A mention as a comment shows it: the wire's, with a missing or empty avatar as null. */
export type Mention = Omit<MentionJson, 'avatar_url'> & { avatar_url: string | null };
