/**
 * Calls of the posts area (spec §7 Posts; docs/posts.md): feeds, a person's posts, one post,
 * like and delete, with their React Query factories. What other features may use of it is
 * re-exported by index.ts, the feature's public surface.
 *
 * Answers depend on who asks (`user_liked`, and a blocked pair never sees each other's posts),
 * so every list and the detail carry the viewer's id in their key. Lists wait for the session
 * check (viewer undefined) instead of asking twice. A like changes the same post in every
 * cached list page and in the detail at once.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError, SESSION_EXPIRED_MESSAGE, request } from '../../lib/http';
import { patchPagedItems } from '../../lib/paged-items';
import { tokenViewerId, useViewer } from '../../lib/session';
import { toDisplayPosts, toDisplayPost } from './transform';
import type { DisplayPost, LikeInput, PostEditJson, PostInput } from './types';

/** Feed and profile post pages hold 10 posts (spec §9). */
export const POSTS_PAGE_SIZE = 10;

export type FeedKind = 'for-you' | 'listened-to';

const FEED_PATHS: Record<FeedKind, string> = {
  'for-you': '/posts/feed',
  'listened-to': '/posts/listened-to',
};

/** One page of a feed or a person's posts. */
export interface PostPage {
  /** The posts that can be shown (spec §3: unsupported ones are dropped). */
  posts: DisplayPost[];
  /** How many posts the server sent, dropped ones included: it decides whether more exist. */
  received: number;
  /**
   * Where the last post the server sent stands: the next page's keyset cursor `before` (its id,
   * or in Listened to the id of the repost that placed it there).
   */
  lastId: string | null;
}

export type PostPages = InfiniteData<PostPage>;

// ---------------------------------------------------------------------------------------------
// Words (spec §8 Feeds, Post page)

export const POST_MESSAGES = {
  emptyTitle: 'No posts yet',
  emptyText: 'Be the first to share something!',
  listenedEmptyText: 'Follow some users to see their posts here!',
  feedFailed: 'Failed to load feed',
  postsFailed: 'Failed to load posts',
  notFound: 'Post not found',
  authRequired: 'Authentication required. Please sign in.',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  transformFailed: (type: string) => `Failed to transform post of type: ${type}`,
} as const;

/**
 * What a list that could not load says: the session ended (401), the server's status, or the
 * list's own fallback ('Failed to load feed', 'Failed to load posts') when it could not be asked.
 */
export function postsErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return SESSION_EXPIRED_MESSAGE;
    return POST_MESSAGES.httpError(error.status);
  }
  return fallback;
}

// ---------------------------------------------------------------------------------------------
// Calls

const enc = encodeURIComponent;

/**
 * A page of posts: `?limit=10`, then `&before=<id of the last post>` (docs/posts.md); `query`
 * adds the list's own parameters (a search's words and kind).
 */
export async function fetchPostPage<More extends object = object>(
  path: string,
  before: string | null,
  signal?: AbortSignal,
  query: Record<string, string> = {},
  more?: (list: PostInput[]) => More,
): Promise<PostPage & More> {
  const params = new URLSearchParams({ ...query, limit: String(POSTS_PAGE_SIZE) });
  if (before) params.set('before', before);
  const answer = await request<PostInput[] | null>(`${path}?${params.toString()}`, { signal });
  const list = Array.isArray(answer) ? answer : [];
  const last = list.at(-1);
  const at = last?.reposted_by?.id ?? last?.id;
  return { ...(more?.(list) as More), posts: toDisplayPosts(list), received: list.length, lastId: at ? String(at) : null };
}

/** One post; a post of a type that cannot be shown fails in spec §8's words. */
export async function fetchPost(postId: string, signal?: AbortSignal): Promise<DisplayPost> {
  const json = await request<PostInput>(`/posts/${enc(postId)}`, { signal });
  const post = toDisplayPost(json);
  if (!post) throw new Error(POST_MESSAGES.transformFailed(String(json?.type ?? 'unknown')));
  return post;
}

export function likePost(postId: string): Promise<LikeInput | undefined> {
  return request<LikeInput | undefined>(`/posts/${enc(postId)}/like`, { method: 'POST' });
}

/** What `POST /posts/{id}/plays` answers (issue 31). */
export interface PlayedInput {
  counted?: boolean;
  plays_count?: number;
}

/**
 * Tells that track `track` of the post has sounded long enough to count (`countPlays`): kept
 * alive past the page it was told from, so moving on as a track ends loses nothing.
 */
export function tellPlay(postId: string, track: number): Promise<PlayedInput | undefined> {
  return request<PlayedInput | undefined>(`/posts/${enc(postId)}/plays`, {
    method: 'POST',
    json: { track },
    keepalive: true,
  });
}

/** PATCH /posts/{id} → the post as it now is. */
export function editPost(postId: string, edit: PostEditJson): Promise<PostInput> {
  return request<PostInput>(`/posts/${enc(postId)}`, { method: 'PATCH', json: edit, sessionScoped: true });
}

export function deletePost(postId: string): Promise<void> {
  return request<void>(`/posts/${enc(postId)}`, { method: 'DELETE' });
}

/** Feeds: more while a page came back full (spec §4: Load More hides after fewer than 10). */
export function nextFeedCursor(page: PostPage): string | null {
  return page.received >= POSTS_PAGE_SIZE ? page.lastId : null;
}

/** A person's posts: more only when the last page held exactly 10 (spec §4). */
export function nextProfileCursor(page: PostPage): string | null {
  return page.received === POSTS_PAGE_SIZE ? page.lastId : null;
}

// ---------------------------------------------------------------------------------------------
// Query factories

/**
 * Who asks, for the factories' keys: the viewer's id, null for a guest (`useViewer()?.id` would
 * mix the two up). While the session check has not answered, who the stored token says
 * (`tokenViewerId`), so a page's lists are asked beside the check rather than after it; if the
 * check answers otherwise, the key changes and they are asked again. Undefined only while
 * nothing can tell.
 */
export function useViewerId(): string | null | undefined {
  const viewer = useViewer();
  return viewer === undefined ? tokenViewerId() : viewer && viewer.id;
}

/**
 * Ask once more after a network failure or a 5xx; a 4xx (a 401 that ended the session, a missing
 * post) would only answer the same, and an untransformable post stays so.
 */
export function retryOnlyServerErrors(failures: number, error: Error): boolean {
  if (failures >= 1) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error.name === 'NetworkError';
}

/** Lists refresh when someone is blocked, listened to, changes their name, or a post comes or goes. */
export const LIST_TOPICS = ['blocks', 'listening', 'posts', 'profile'] as const;

export const postQueries = {
  all: () => ['posts'] as const,
  lists: () => [...postQueries.all(), 'list'] as const,
  /**
   * 'For you' is public (a guest gets it too); 'Listened to' needs someone signed in. Both wait
   * until the session check has answered.
   */
  feed: (kind: FeedKind, viewerId: string | null | undefined) =>
    infiniteQueryOptions({
      queryKey: [...postQueries.lists(), 'feed', kind, viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }) => fetchPostPage(FEED_PATHS[kind], pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: PostPage) => nextFeedCursor(last),
      enabled: kind === 'for-you' ? viewerId !== undefined : Boolean(viewerId),
      retry: retryOnlyServerErrors,
      meta: { shows: LIST_TOPICS },
    }),
  byUser: (userId: string, viewerId: string | null | undefined) =>
    infiniteQueryOptions({
      queryKey: [...postQueries.lists(), 'user', userId, viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }) => fetchPostPage(`/posts/user/${enc(userId)}`, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: PostPage) => nextProfileCursor(last),
      enabled: Boolean(userId) && viewerId !== undefined,
      retry: retryOnlyServerErrors,
      meta: { shows: LIST_TOPICS },
    }),
  /** The newest posts with a tag (GET /posts/tags/{tag}, issue 31), ten a page. */
  byTag: (tag: string, viewerId: string | null | undefined) =>
    infiniteQueryOptions({
      queryKey: [...postQueries.lists(), 'tag', tag, viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }) => fetchPostPage(`/posts/tags/${enc(tag)}`, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: PostPage) => nextFeedCursor(last),
      enabled: Boolean(tag) && viewerId !== undefined,
      retry: retryOnlyServerErrors,
      meta: { shows: LIST_TOPICS },
    }),
  details: () => [...postQueries.all(), 'detail'] as const,
  /**
   * One post (GET /posts/{id}); a 404 and an untransformable post fail at once, without retries.
   * Pass the viewer's id (`useViewer()?.id`) so `user_liked` is the viewer's; it does not wait
   * for the session check itself.
   */
  detail: (postId: string, viewerId?: string | null) =>
    queryOptions({
      queryKey: [...postQueries.details(), postId, viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchPost(postId, signal),
      retry: retryOnlyServerErrors,
      meta: { shows: ['blocks', 'profile'] },
    }),
};

// ---------------------------------------------------------------------------------------------
// Changing cached posts

type PostPatch = Partial<
  Pick<DisplayPost, 'user_liked' | 'likes_count' | 'comments_count' | 'plays_count' | 'user_reposted' | 'reposts_count'>
>;

/**
 * Changes one post wherever it is cached: every page of every feed and person's list, and its
 * detail. Pages that do not hold it stay the same objects, so only its card renders again.
 */
export function patchCachedPost(
  queryClient: QueryClient,
  postId: string,
  patch: PostPatch | ((post: DisplayPost) => PostPatch),
): void {
  const isIt = (post: DisplayPost) => post.id === postId;
  const apply = (post: DisplayPost): DisplayPost => ({ ...post, ...(typeof patch === 'function' ? patch(post) : patch) });
  patchPagedItems(queryClient, postQueries.lists(), isIt, apply, { pageField: 'posts' });
  patchPagedItems(queryClient, [...postQueries.details(), postId], isIt, apply);
}

/** Takes a deleted post out of every cached list and forgets its detail. */
export function removeCachedPost(queryClient: QueryClient, postId: string): void {
  patchPagedItems(queryClient, postQueries.lists(), (post: DisplayPost) => post.id === postId, () => null, {
    pageField: 'posts',
  });
  queryClient.removeQueries({ queryKey: [...postQueries.details(), postId] });
}

/**
 * One more comment on the post, wherever it is cached. The post page passes it to the comments
 * section (`onCommentAdded`), which knows nothing of posts.
 */
export function countCachedComment(queryClient: QueryClient, postId: string): void {
  patchCachedPost(queryClient, postId, (post) => ({ comments_count: post.comments_count + 1 }));
}

/** One comment less on the post (deleted), never below 0; the comments section's `onCommentRemoved`. */
export function uncountCachedComment(queryClient: QueryClient, postId: string): void {
  patchCachedPost(queryClient, postId, (post) => ({ comments_count: Math.max(0, post.comments_count - 1) }));
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** What a like is toggled from: the post's state when the button was pressed. */
export interface LikeVariables {
  postId: string;
  user_liked: boolean;
  likes_count: number;
}

interface LikeContext {
  previous: PostPatch;
}

/** All likes in flight for one post share this key, so each of its buttons knows (useIsMutating). */
export const likeMutationKey = (postId: string) => [...postQueries.all(), 'like', postId] as const;

/** The state after pressing like: flipped, one more or one less, never below 0 (spec §4). */
export function toggledLike(state: { user_liked: boolean; likes_count: number }): { user_liked: boolean; likes_count: number } {
  return {
    user_liked: !state.user_liked,
    likes_count: Math.max(0, state.likes_count + (state.user_liked ? -1 : 1)),
  };
}

/** The server's word after a like: `liked`, or `user_liked`, with `likes_count` when it sent one. */
export function likeAnswer(answer: LikeInput | undefined, optimistic: { user_liked: boolean; likes_count: number }): PostPatch {
  const liked = typeof answer?.liked === 'boolean' ? answer.liked : answer?.user_liked;
  const count = answer?.likes_count;
  return {
    user_liked: typeof liked === 'boolean' ? liked : optimistic.user_liked,
    likes_count: typeof count === 'number' && Number.isFinite(count) ? Math.max(0, count) : optimistic.likes_count,
  };
}

/**
 * Like / unlike (POST /posts/{id}/like, a toggle). Optimistic: the post flips everywhere it is
 * cached at once; the server's answer then replaces that state, and any failure restores the
 * one before (spec §4 Like). A failure is logged; the caller decides what to show.
 */
export function useLikePost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation<LikeInput | undefined, Error, LikeVariables, LikeContext>({
    mutationKey: likeMutationKey(postId),
    mutationFn: (variables) => likePost(variables.postId),
    onMutate: async (variables) => {
      // An in-flight detail fetch must not overwrite the new state with the old one.
      await queryClient.cancelQueries({ queryKey: [...postQueries.details(), variables.postId] });
      const previous = { user_liked: variables.user_liked, likes_count: variables.likes_count };
      patchCachedPost(queryClient, variables.postId, toggledLike(previous));
      return { previous };
    },
    onSuccess: (answer, variables) => {
      patchCachedPost(queryClient, variables.postId, likeAnswer(answer, toggledLike(variables)));
    },
    onError: (error, variables, context) => {
      console.error('Like failed', error);
      patchCachedPost(queryClient, variables.postId, context?.previous ?? { user_liked: variables.user_liked, likes_count: variables.likes_count });
    },
  });
}

/**
 * Edit one's own post's words (PATCH /posts/{id}): the server's answer takes the post's place in
 * every cached list and its detail at once. An answer that cannot be shown has the post fetched
 * again.
 */
export function useEditPost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: PostEditJson) => editPost(postId, edit),
    onSuccess: async (json) => {
      const edited = toDisplayPost(json);
      if (!edited) {
        await queryClient.invalidateQueries({ queryKey: [...postQueries.details(), postId] });
        return;
      }
      const isIt = (post: DisplayPost) => post.id === postId;
      // The viewer's own like stays as each copy knows it; the rest is the server's.
      const apply = (post: DisplayPost): DisplayPost => ({ ...edited, user_liked: post.user_liked, likes_count: post.likes_count });
      patchPagedItems(queryClient, postQueries.lists(), isIt, apply, { pageField: 'posts' });
      patchPagedItems(queryClient, [...postQueries.details(), postId], isIt, apply);
    },
  });
}

/** Delete one's own post (DELETE /posts/{id}, 204): it leaves every cached list at once. */
export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (postId: string) => deletePost(postId),
    // Feeds, lists and post counts fetch again.
    meta: { changes: ['posts'] },
    onSuccess: (_answer, postId) => removeCachedPost(queryClient, postId),
  });
}
