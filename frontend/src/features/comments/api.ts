/**
 * Comments of a post and the mention picker (spec §4 Comment posting, §5 Mentions, §7 Posts:
 * GET/POST /posts/{id}/comments, GET /posts/users/search; beyond the spec DELETE
 * /posts/{id}/comments/{commentId}, and GET /posts/{id}/moments, the comments on a moment of an
 * audio post's track), with their React Query factories.
 * The feature's public surface is index.ts: the post page shows `CommentsSection`.
 *
 * Both answers depend on who asks (the server leaves out people in a block pair with the
 * viewer), so the keys carry the viewer's id. Comment keys start with ['posts', postId,
 * 'comments'], next to the post they belong to.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, request } from '../../lib/http';
import { patchItems } from '../../lib/paged-items';
import { toDisplayComment, toDisplayComments } from './transform';
import type { CommentInput, CommentMoment, DisplayComment, MentionUserJson } from './types';

/** Comments come 20 at a time (spec §9). */
export const COMMENTS_PAGE_SIZE = 20;
/** The mention picker shows 10 people, asked 200 ms after the typing stops (spec §9). */
export const MENTION_LIMIT = 10;
export const MENTION_DEBOUNCE_MS = 200;
/** What the server accepts (docs/posts.md: trimmed, not blank, bounded). */
export const COMMENT_MAX_CHARS = 2000;

// ---------------------------------------------------------------------------------------------
// Words (spec §2 Post page, §8 Post page)

export const COMMENT_MESSAGES = {
  heading: 'Comments',
  placeholder: "What's on your mind?",
  publish: 'Publish',
  publishing: 'Publishing...',
  posting: 'Posting your comment...',
  emptyTitle: 'No comments yet',
  emptyText: 'Be the first to comment!',
  loadMore: 'Load More Comments',
  loadingMore: 'Loading...',
  signIn: 'Sign in to comment',
  loadFailed: 'Failed to load comments',
  tryAgain: 'Try Again',
  postFailed: (status: number | string, body: string) => `Failed to post comment: ${status} ${body}`.trimEnd(),
  editFailed: (status: number | string, body: string) => `Failed to save comment: ${status} ${body}`.trimEnd(),
} as const;

/**
 * Spec §8: 'Failed to post comment: {status} {body}'. The body is the server's own words (its
 * `detail`), else what it sent; a request that got no answer says so instead of a status.
 */
export function commentErrorMessage(error: unknown, words: typeof COMMENT_MESSAGES.postFailed = COMMENT_MESSAGES.postFailed): string {
  if (error instanceof ApiError) {
    const body = error.serverMessage ?? (error.detail !== undefined ? JSON.stringify(error.detail) : error.statusText);
    return words(error.status, body);
  }
  if (error instanceof Error && error.name === 'NetworkError') {
    return words('Network error', 'Please check your connection and try again.');
  }
  return words('', error instanceof Error ? error.message : String(error));
}

/** What the comment list says when it could not load (spec §8: "the message"). */
export function commentsLoadErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? `HTTP error! status: ${error.status}`;
  return COMMENT_MESSAGES.loadFailed;
}

// ---------------------------------------------------------------------------------------------
// Calls

const enc = encodeURIComponent;

/** One page of a post's comments. */
export interface CommentPage {
  comments: DisplayComment[];
  /** How many the server sent: a full page (20) means there may be more. */
  received: number;
  /** Comments published here and put on top of this page since it came. */
  added?: number;
  /** Comments of this page deleted here since it came. */
  removed?: number;
}

export type CommentPages = InfiniteData<CommentPage, number>;

export async function fetchComments(postId: string, offset: number, signal?: AbortSignal): Promise<CommentPage> {
  const params = new URLSearchParams({ limit: String(COMMENTS_PAGE_SIZE), offset: String(offset) });
  const answer = await request<CommentInput[] | null>(`/posts/${enc(postId)}/comments?${params.toString()}`, { signal });
  const list = Array.isArray(answer) ? answer : [];
  return { comments: toDisplayComments(list), received: list.length };
}

/**
 * POST /posts/{id}/comments {content} → 201 {comment}; a comment on a moment of the post's track
 * also sends `at_ms` and `track`, one on bars of a score `bar`, `bar_end` and `track` (beyond the
 * spec, optional both ways).
 */
export function postComment(
  postId: string,
  content: string,
  moment: CommentMoment | null = null,
): Promise<{ comment?: CommentInput | null } | undefined> {
  const json: components['schemas']['NewCommentJson'] = !moment
    ? { content }
    : moment.bars
      ? { content, bar: moment.bars.from, bar_end: moment.bars.to, track: moment.track }
      : { content, at_ms: moment.ms, track: moment.track };
  return request<{ comment?: CommentInput | null } | undefined>(`/posts/${enc(postId)}/comments`, { method: 'POST', json });
}

/**
 * GET /posts/{id}/moments: the post's comments on a moment of its tracks (the newest, at most
 * 200), for the marks along the waveform (which place them by their moments).
 */
export async function fetchMoments(postId: string, signal?: AbortSignal): Promise<DisplayComment[]> {
  const answer = await request<CommentInput[] | null>(`/posts/${enc(postId)}/moments`, { signal });
  return toDisplayComments(Array.isArray(answer) ? answer : []).filter((c) => c.moment !== null);
}

export function searchMentions(q: string, signal?: AbortSignal): Promise<MentionUserJson[]> {
  const params = new URLSearchParams({ q, limit: String(MENTION_LIMIT) });
  return request<MentionUserJson[] | null>(`/posts/users/search?${params.toString()}`, { signal }).then((answer) =>
    Array.isArray(answer) ? answer.filter((u) => u && u.id !== undefined && typeof u.login === 'string') : [],
  );
}

/** PATCH /posts/{id}/comments/{commentId} {content} → 200 {comment}: one's own comment, edited. */
export function editComment(
  postId: string,
  commentId: string,
  content: string,
): Promise<{ comment?: CommentInput | null } | undefined> {
  return request<{ comment?: CommentInput | null } | undefined>(`/posts/${enc(postId)}/comments/${enc(commentId)}`, {
    method: 'PATCH',
    json: { content } satisfies components['schemas']['NewCommentJson'],
    sessionScoped: true,
  });
}

/** DELETE /posts/{id}/comments/{commentId} → 204. */
export function deleteComment(postId: string, commentId: string): Promise<unknown> {
  return request<unknown>(`/posts/${enc(postId)}/comments/${enc(commentId)}`, { method: 'DELETE', sessionScoped: true });
}

/**
 * Where the next page starts: after every comment already shown, so a comment just posted (put
 * on top of the first page) does not make the next page repeat the last one, nor one deleted
 * here skip one. Only a full page means there may be more (spec §4).
 */
export function nextCommentOffset(last: CommentPage, all: readonly CommentPage[]): number | null {
  if (last.received < COMMENTS_PAGE_SIZE) return null;
  return all.reduce((sum, page) => sum + page.received + (page.added ?? 0) - (page.removed ?? 0), 0);
}

// ---------------------------------------------------------------------------------------------
// Query factories

export const commentQueries = {
  all: (postId: string) => ['posts', postId, 'comments'] as const,
  /** A post's comments, newest first; waits for the session check (viewer undefined). */
  list: (postId: string, viewerId?: string | null) =>
    infiniteQueryOptions({
      queryKey: [...commentQueries.all(postId), 'list', viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }) => fetchComments(postId, pageParam, signal),
      initialPageParam: 0,
      getNextPageParam: (last: CommentPage, all: CommentPage[]) => nextCommentOffset(last, all),
      enabled: Boolean(postId) && viewerId !== undefined,
      // Names and avatars of authors change; blocked people's comments go.
      meta: { shows: ['blocks', 'profile'] },
    }),
  /** The post's comments on a moment of its tracks (audio posts only: `enabled`). */
  moments: (postId: string, viewerId?: string | null, enabled = true) =>
    queryOptions({
      queryKey: [...commentQueries.all(postId), 'moments', viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchMoments(postId, signal),
      enabled: enabled && Boolean(postId) && viewerId !== undefined,
      meta: { shows: ['blocks', 'profile'] },
    }),
};

/** Changes every cached copy of the post's timed comments. */
function patchCachedMoments(
  queryClient: QueryClient,
  postId: string,
  change: (moments: DisplayComment[]) => DisplayComment[],
): void {
  queryClient.setQueriesData<DisplayComment[]>({ queryKey: [...commentQueries.all(postId), 'moments'] }, (data) =>
    Array.isArray(data) ? change(data) : data,
  );
}

export const mentionQueries = {
  all: () => ['posts', 'mention-search'] as const,
  /** People whose login or name starts like `q` (GET /posts/users/search?q=&limit=10). */
  search: (q: string, viewerId?: string | null) =>
    queryOptions({
      queryKey: [...mentionQueries.all(), viewerId ?? null, q] as const,
      queryFn: ({ signal }) => searchMentions(q, signal),
      enabled: q.length > 0,
      staleTime: 30_000,
      retry: false,
      meta: { shows: ['blocks', 'profile'] },
    }),
};

// ---------------------------------------------------------------------------------------------
// Changing the cache after a comment

/**
 * Puts a new comment on top of every cached copy of the post's list (once), and a timed one
 * among the post's moments.
 */
export function prependCachedComment(queryClient: QueryClient, postId: string, comment: DisplayComment): void {
  if (comment.moment) {
    patchCachedMoments(queryClient, postId, (all) =>
      all.some((c) => c.id === comment.id) ? all : [comment, ...all],
    );
  }
  queryClient.setQueriesData<CommentPages>({ queryKey: [...commentQueries.all(postId), 'list'] }, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data;
    if (data.pages.some((page) => page.comments.some((c) => c.id === comment.id))) return data;
    const top = { ...first, comments: [comment, ...first.comments], added: (first.added ?? 0) + 1 };
    return { ...data, pages: [top, ...rest] };
  });
}

/**
 * Takes a deleted comment out of every cached copy of the post's list; true when it was there.
 * The page that held it remembers one less, so the next page starts where it should.
 */
export function removeCachedComment(queryClient: QueryClient, postId: string, commentId: string): boolean {
  let found = false;
  patchCachedMoments(queryClient, postId, (all) => (all.some((c) => c.id === commentId) ? all.filter((c) => c.id !== commentId) : all));
  queryClient.setQueriesData<CommentPages>({ queryKey: [...commentQueries.all(postId), 'list'] }, (data) => {
    if (!data?.pages) return data;
    const pages = data.pages.map((page) => {
      const comments = patchItems<DisplayComment>(page.comments, (c) => c.id === commentId, () => null);
      if (comments === page.comments) return page;
      found = true;
      return { ...page, comments: comments as DisplayComment[], removed: (page.removed ?? 0) + 1 };
    });
    return pages.every((page, i) => page === data.pages[i]) ? data : { ...data, pages };
  });
  return found;
}

/** Puts an edited comment in place of the one it was, in every cached copy of the post's list. */
export function replaceCachedComment(queryClient: QueryClient, postId: string, comment: DisplayComment): void {
  patchCachedMoments(queryClient, postId, (all) =>
    all.some((c) => c.id === comment.id) ? all.map((c) => (c.id === comment.id ? comment : c)) : all,
  );
  queryClient.setQueriesData<CommentPages>({ queryKey: [...commentQueries.all(postId), 'list'] }, (data) => {
    if (!data?.pages) return data;
    const pages = data.pages.map((page) => {
      const comments = patchItems<DisplayComment>(page.comments, (c) => c.id === comment.id, () => comment);
      return comments === page.comments ? page : { ...page, comments: comments as DisplayComment[] };
    });
    return pages.every((page, i) => page === data.pages[i]) ? data : { ...data, pages };
  });
}

/**
 * What else a published comment changes in the cache: the post page counts it on the post
 * (posts' `countCachedComment`), which this feature knows nothing of.
 */
export type CommentAddedHandler = (queryClient: QueryClient, postId: string) => void;
/** The same for a deleted comment (posts' `uncountCachedComment`). */
export type CommentRemovedHandler = (queryClient: QueryClient, postId: string) => void;

export const addCommentMutationKey = (postId: string) => [...commentQueries.all(postId), 'add'] as const;

/**
 * Publishing a comment (spec §4 Comment posting): the new comment goes on top of the list and
 * `onAdded` counts it on the post; when the server sends no comment back, the list is asked
 * again. The caller blocks a second submit while one is on its way (`isPending`).
 */
export function useAddComment(postId: string, onAdded?: CommentAddedHandler) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: addCommentMutationKey(postId),
    mutationFn: ({ content, moment }: { content: string; moment: CommentMoment | null }) =>
      postComment(postId, content, moment),
    onSuccess: async (answer) => {
      const comment = answer?.comment ? toDisplayComment(answer.comment) : null;
      onAdded?.(queryClient, postId);
      if (comment) {
        prependCachedComment(queryClient, postId, comment);
      } else {
        await queryClient.invalidateQueries({ queryKey: commentQueries.all(postId) });
      }
    },
  });
}

/**
 * Editing one's own comment: the list shows the server's answer (the new text, its mentions,
 * 'edited') in its place; without one, the list is asked again. A comment that is gone (404)
 * leaves the list, as after a delete.
 */
export function useEditComment(postId: string, onRemoved?: CommentRemovedHandler) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, content }: { commentId: string; content: string }) => editComment(postId, commentId, content),
    onSuccess: async (answer) => {
      const comment = answer?.comment ? toDisplayComment(answer.comment) : null;
      if (comment) replaceCachedComment(queryClient, postId, comment);
      else await queryClient.invalidateQueries({ queryKey: commentQueries.all(postId) });
    },
    onError: (error, { commentId }) => {
      if (error instanceof ApiError && error.status === 404) {
        if (removeCachedComment(queryClient, postId, commentId)) onRemoved?.(queryClient, postId);
        void queryClient.invalidateQueries({ queryKey: commentQueries.all(postId) });
      }
    },
  });
}

/**
 * Deleting a comment (its author, the post's author or an admin): it leaves every cached list at
 * once and `onRemoved` counts it off the post. One that was already gone (404) leaves too, and
 * the list is asked again.
 */
export function useDeleteComment(postId: string, onRemoved?: CommentRemovedHandler) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(postId, commentId),
    onSuccess: (_answer, commentId) => {
      if (removeCachedComment(queryClient, postId, commentId)) onRemoved?.(queryClient, postId);
    },
    onError: (error, commentId) => {
      if (error instanceof ApiError && error.status === 404) {
        removeCachedComment(queryClient, postId, commentId);
        void queryClient.invalidateQueries({ queryKey: commentQueries.all(postId) });
      }
    },
  });
}
