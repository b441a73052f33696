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
}

/** A mention as a comment shows it: the wire's, with a missing or empty avatar as null. */
export type Mention = Omit<MentionJson, 'avatar_url'> & { avatar_url: string | null };
