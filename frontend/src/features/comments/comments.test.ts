// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { COMMENTS_PAGE_SIZE, commentErrorMessage, nextCommentOffset, type CommentPage } from './api';
import { formatCommentTime } from './comment-list';
import { insertMention, mentionAt } from './mention-textarea';
import { splitMentions } from './comment-text';
import { momentText } from './moment-words';
import { toDisplayComment } from './transform';
import { ApiError, NetworkError } from '../../lib/http';
import type { CommentInput, Mention } from './types';

const ana: Mention = { user_id: '7', login: 'ana', name: 'Ana', avatar_url: null };
const ben: Mention = { user_id: '8', login: 'ben_b', name: 'Ben', avatar_url: null };

describe('toDisplayComment', () => {
  it('reads the flat author_* fields', () => {
    const json: CommentInput = {
      id: '1',
      content: '  hello  ',
      created_at: '2026-11-23T13:05:00Z',
      author_id: '7',
      author_name: 'Ana',
      author_login: 'ana',
      author_avatar_url: '/a.png',
      author_role: 'role-id',
      mentions: [{ user_id: '8', login: 'ben_b', name: 'Ben', avatar_url: '' }],
    };
    expect(toDisplayComment(json)).toEqual({
      id: '1',
      content: 'hello',
      createdAt: '2026-11-23T13:05:00Z',
      editedAt: null,
      authorId: '7',
      authorName: 'Ana',
      authorLogin: 'ana',
      authorAvatarUrl: '/a.png',
      authorRole: 'role-id',
      mentions: [{ user_id: '8', login: 'ben_b', name: 'Ben', avatar_url: null }],
      moment: null,
    });
  });

  it('reads the moment of a track a comment is on, and only a whole time from 0', () => {
    const base: CommentInput = { id: '3', content: 'solo', author_login: 'ana' };
    expect(toDisplayComment({ ...base, at_ms: 83_000, track: 1 })?.moment).toEqual({ ms: 83_000, track: 1 });
    expect(toDisplayComment({ ...base, at_ms: 0 })?.moment).toEqual({ ms: 0, track: 0 });
    for (const at_ms of [-1, 1.5, null, undefined]) {
      expect(toDisplayComment({ ...base, at_ms, track: 0 })?.moment, String(at_ms)).toBeNull();
    }
    expect(toDisplayComment({ ...base, at_ms: 10, track: -2 })?.moment).toEqual({ ms: 10, track: 0 });
    // On bars of a score: an end before the start is the start alone; bar 0 is no bar.
    expect(toDisplayComment({ ...base, bar: 9, bar_end: 16, track: 1 })?.moment).toEqual({ track: 1, bars: { from: 9, to: 16 } });
    expect(toDisplayComment({ ...base, bar: 3, bar_end: 2 })?.moment).toEqual({ track: 0, bars: { from: 3, to: 3 } });
    expect(toDisplayComment({ ...base, bar: 0 })?.moment).toBeNull();
    const bars = (from: number, to: number) => ({ track: 0, bars: { from, to } });
    expect([momentText(bars(9, 16), null), momentText(bars(3, 3), 'Étude')]).toEqual(['bars 9–16', 'bar 3 in Étude']);
  });

  it('reads the nested user and `text` when the flat fields are missing', () => {
    const json: CommentInput = {
      id: '2',
      text: 'from text',
      created_at: '2026-11-23T13:05:00Z',
      user: { id: '9', name: null, login: 'cleo', avatar_url: null, role: null },
    };
    expect(toDisplayComment(json)).toMatchObject({
      content: 'from text',
      authorId: '9',
      authorName: 'cleo',
      authorLogin: 'cleo',
      authorAvatarUrl: null,
      authorRole: null,
      mentions: [],
    });
  });

  it('drops a comment without an id', () => {
    expect(toDisplayComment({ created_at: '' })).toBeNull();
  });
});

describe('splitMentions', () => {
  it('links only logins the server listed, at the start or after whitespace, case-insensitively', () => {
    expect(splitMentions('@Ana meet @ben_b, not @zed or mail@ana', [ana, ben])).toEqual([
      { kind: 'mention', text: '@Ana', mention: ana },
      { kind: 'text', text: ' meet ' },
      { kind: 'mention', text: '@ben_b', mention: ben },
      { kind: 'text', text: ', not @zed or mail@ana' },
    ]);
  });

  it('takes the whole run of login characters, as the server does', () => {
    // '@anabel' is not '@ana'.
    expect(splitMentions('hi @anabel', [ana])).toEqual([{ kind: 'text', text: 'hi @anabel' }]);
    expect(splitMentions('hi\n@ana!', [ana])).toEqual([
      { kind: 'text', text: 'hi\n' },
      { kind: 'mention', text: '@ana', mention: ana },
      { kind: 'text', text: '!' },
    ]);
  });
});

describe('formatCommentTime', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it.each([
    [30_000, 'just now'],
    [-5_000, 'just now'],
    [5 * 60_000, '5m'],
    [3 * 3_600_000, '3h'],
    [2 * 86_400_000, '2d'],
  ])('%i ms ago is %s', (ms, words) => {
    expect(formatCommentTime(ago(ms), now)).toBe(words);
  });

  it('shows a date from 7 days on, and nothing for an unreadable time', () => {
    const old = ago(7 * 86_400_000);
    expect(formatCommentTime(old, now)).toBe(old.toLocaleDateString());
    expect(formatCommentTime('nope', now)).toBe('');
  });
});

describe('mentionAt and insertMention', () => {
  it('finds an @ at the start or after whitespace with text up to the caret', () => {
    expect(mentionAt('@an', 3)).toEqual({ start: 0, query: 'an' });
    expect(mentionAt('hi @an there', 6)).toEqual({ start: 3, query: 'an' });
    expect(mentionAt('hi @', 4)).toBeNull();
    expect(mentionAt('mail@an', 7)).toBeNull();
    expect(mentionAt('hi @an there', 12)).toBeNull();
  });

  it('replaces the typed mention with @login and a space', () => {
    expect(insertMention('hi @an', { start: 3, query: 'an' }, 6, 'ana')).toEqual({ text: 'hi @ana ', caret: 8 });
    expect(insertMention('@an there', { start: 0, query: 'an' }, 3, 'ana')).toEqual({ text: '@ana there', caret: 5 });
  });
});

describe('paging and errors', () => {
  const page = (received: number, added = 0): CommentPage => ({ comments: [], received, added });

  it('asks for more only after a full page, starting after everything shown', () => {
    expect(nextCommentOffset(page(12), [page(12)])).toBeNull();
    expect(nextCommentOffset(page(COMMENTS_PAGE_SIZE), [page(COMMENTS_PAGE_SIZE)])).toBe(20);
    // Two comments published here moved the server's list down by two.
    expect(nextCommentOffset(page(20), [page(20, 2), page(20)])).toBe(42);
  });

  it("says 'Failed to post comment: {status} {body}'", () => {
    expect(commentErrorMessage(new ApiError(400, { detail: 'Comment cannot be empty' }))).toBe(
      'Failed to post comment: 400 Comment cannot be empty',
    );
    expect(commentErrorMessage(new ApiError(500, 'oops', { statusText: 'Internal Server Error' }))).toBe(
      'Failed to post comment: 500 Internal Server Error',
    );
    expect(commentErrorMessage(new NetworkError(new TypeError('fetch failed')))).toMatch(/^Failed to post comment: Network error/);
  });
});
