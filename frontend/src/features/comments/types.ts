/**
 * Wire types of comments and mentions (spec §3 Comment; docs/posts.md) and the comment the list
 * shows. Wire data is turned into display data once, in transform.ts.
 */

export interface MentionJson {
  user_id: string;
  login: string;
  name: string;
  avatar_url: string | null;
}

export interface CommentJson {
  id: string;
  content?: string | null;
  text?: string | null;
  created_at: string;
  user?: { id: string; name: string | null; login: string | null; avatar_url: string | null; role: string | null };
  author_id?: string;
  author_name?: string | null;
  author_login?: string | null;
  author_avatar_url?: string | null;
  author_role?: string | null;
  mentions?: MentionJson[] | null;
}

/** GET /posts/users/search (the mention picker). */
export interface MentionUserJson {
  id: string;
  login: string;
  name: string;
  avatar_url: string | null;
}

// ---------------------------------------------------------------------------------------------
// Displayed model

export interface DisplayComment {
  id: string;
  content: string;
  createdAt: string;
  authorId: string;
  authorName: string;
  authorLogin: string;
  authorAvatarUrl: string | null;
  authorRole: string | null;
  mentions: MentionJson[];
}
