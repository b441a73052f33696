/**
 * Wire comments (spec §3 Comment; docs/posts.md) turned once into what the list shows. The
 * server sends the author twice, flat (`author_*`) and nested (`user`); either one is enough, so
 * a comment missing one of them still shows its author.
 */
import type { Lenient } from '../../lib/lenient';
import type { CommentInput, CommentMoment, DisplayComment, Mention, MentionJson } from './types';

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function toMention(json: unknown): Mention | null {
  if (typeof json !== 'object' || json === null) return null;
  const m = json as Lenient<MentionJson>;
  const login = text(m.login);
  if (m.user_id === undefined || m.user_id === null || !login) return null;
  return { user_id: String(m.user_id), login, name: text(m.name), avatar_url: nonEmpty(m.avatar_url) };
}

function wholeAtLeastZero(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Where a comment is: `at_ms`, or `bar` to `bar_end`, on `track` (the first when not given). */
function toMoment(json: CommentInput): CommentMoment | null {
  const track = wholeAtLeastZero(json.track) ?? 0;
  const ms = wholeAtLeastZero(json.at_ms);
  if (ms !== null) return { ms, track };
  const from = wholeAtLeastZero(json.bar);
  if (from === null || from < 1) return null;
  const to = wholeAtLeastZero(json.bar_end);
  return { track, bars: { from, to: to !== null && to >= from ? to : from } };
}

/** A comment as the list shows it, or null when it has no id to key it by. */
export function toDisplayComment(json: CommentInput): DisplayComment | null {
  if (typeof json !== 'object' || json === null || json.id === undefined || json.id === null) return null;
  const user = typeof json.user === 'object' && json.user !== null ? json.user : null;
  const login = text(json.author_login) || text(user?.login);
  const authorId = json.author_id ?? user?.id;
  const body = typeof json.content === 'string' ? json.content : typeof json.text === 'string' ? json.text : '';
  return {
    id: String(json.id),
    content: body.trim(),
    createdAt: typeof json.created_at === 'string' ? json.created_at : '',
    editedAt: typeof json.edited_at === 'string' && json.edited_at !== '' ? json.edited_at : null,
    authorId: authorId === undefined || authorId === null ? '' : String(authorId),
    authorName: text(json.author_name) || text(user?.name) || login,
    authorLogin: login,
    authorAvatarUrl: nonEmpty(json.author_avatar_url) ?? nonEmpty(user?.avatar_url),
    authorRole: nonEmpty(json.author_role) ?? nonEmpty(user?.role),
    mentions: Array.isArray(json.mentions)
      ? json.mentions.map(toMention).filter((m): m is Mention => m !== null)
      : [],
    moment: toMoment(json),
  };
}

export function toDisplayComments(list: readonly CommentInput[]): DisplayComment[] {
  return list.map(toDisplayComment).filter((c): c is DisplayComment => c !== null);
}
