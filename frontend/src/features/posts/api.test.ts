import { describe, expect, it, vi } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { testQueryClient } from '../../test/render';
import { ApiError, NetworkError, SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import {
  POSTS_PAGE_SIZE,
  likeAnswer,
  postQueries,
  postsErrorMessage,
  toggledLike,
  useDeletePost,
  useLikePost,
  type PostPage,
  type PostPages,
} from './api';
import { toDisplayPost } from './transform';
import type { DisplayPost, PostInput } from './types';

function postJson(id: string, overrides: Partial<PostInput> = {}): PostInput {
  return {
    id,
    type: 'lyrics',
    caption: null,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 2,
    comments_count: 0,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
    lyrics: { title: `Song ${id}`, artist: 'Ana', lyrics_text: 'la', parts: [] },
    ...overrides,
  };
}

/** Posts with ids from `from` down, newest first, like the server's pages. */
const posts = (n: number, from: number) => Array.from({ length: n }, (_, i) => postJson(String(from - i)));

function wrapper(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
}

/** A feed answering pages by `before`, recording every address asked. */
function feedBackend(path: string, pages: Record<string, PostInput[]>) {
  const asked: string[] = [];
  server.use(
    http.get(api(path), ({ request }) => {
      const url = new URL(request.url);
      asked.push(url.search);
      return HttpResponse.json(pages[url.searchParams.get('before') ?? 'first'] ?? []);
    }),
  );
  return asked;
}

describe('postQueries keys', () => {
  it('start with posts and carry the viewer', () => {
    expect(postQueries.feed('for-you', '100').queryKey).toEqual(['posts', 'list', 'feed', 'for-you', '100']);
    expect(postQueries.feed('listened-to', null).queryKey).toEqual(['posts', 'list', 'feed', 'listened-to', null]);
    expect(postQueries.byUser('42', '100').queryKey).toEqual(['posts', 'list', 'user', '42', '100']);
    expect(postQueries.detail('7', '100').queryKey).toEqual(['posts', 'detail', '7', '100']);
    expect(postQueries.detail('7').queryKey).toEqual(['posts', 'detail', '7', null]);
  });

  it('lists refresh on blocks, listening, posts and profile changes', () => {
    expect(postQueries.feed('for-you', null).meta?.shows).toEqual(expect.arrayContaining(['blocks', 'listening', 'posts', 'profile']));
    expect(postQueries.byUser('42', null).meta?.shows).toEqual(expect.arrayContaining(['blocks', 'listening', 'posts']));
  });

  it('wait for the session check; Listened to needs someone signed in', () => {
    expect(postQueries.feed('for-you', undefined).enabled).toBe(false);
    expect(postQueries.feed('for-you', null).enabled).toBe(true);
    expect(postQueries.feed('listened-to', null).enabled).toBe(false);
    expect(postQueries.feed('listened-to', '100').enabled).toBe(true);
    expect(postQueries.byUser('42', undefined).enabled).toBe(false);
    expect(postQueries.byUser('', null).enabled).toBe(false);
  });
});

describe('feeds', () => {
  it('ask for 10, then for the 10 before the last post; no more after a short page', async () => {
    const asked = feedBackend('/posts/feed', { first: posts(10, 100), '91': posts(3, 90) });
    const client = testQueryClient();
    const { result } = renderHook(() => useInfiniteQuery(postQueries.feed('for-you', null)), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.hasNextPage).toBe(true);
    expect(result.current.data?.pages[0]?.posts).toHaveLength(10);

    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(asked).toEqual(['?limit=10', '?limit=10&before=91']);
    expect(result.current.data?.pages.flatMap((p) => p.posts.map((post) => post.id))).toHaveLength(13);
    expect(result.current.hasNextPage).toBe(false);
  });

  it('counts dropped posts towards a full page and takes the cursor from the last post sent', async () => {
    const page = [...posts(9, 100), postJson('91', { type: 'poll' })];
    const asked = feedBackend('/posts/listened-to', { first: page, '91': [] });
    const client = testQueryClient();
    const { result } = renderHook(() => useInfiniteQuery(postQueries.feed('listened-to', '100')), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.pages[0]).toMatchObject({ received: 10, lastId: '91' });
    expect(result.current.data?.pages[0]?.posts).toHaveLength(9);
    expect(result.current.hasNextPage).toBe(true);
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(asked).toEqual(['?limit=10', '?limit=10&before=91']);
    expect(result.current.hasNextPage).toBe(false);
  });

  it("a person's posts have more only after exactly 10", () => {
    const page = (received: number): PostPage => ({ posts: [], received, lastId: 'x' });
    const next = postQueries.byUser('42', null).getNextPageParam;
    const feedNext = postQueries.feed('for-you', null).getNextPageParam;
    const pages = (p: PostPage) => [p];
    expect(next(page(POSTS_PAGE_SIZE), pages(page(10)), null, [null])).toBe('x');
    expect(next(page(9), pages(page(9)), null, [null])).toBeNull();
    expect(next(page(11), pages(page(11)), null, [null])).toBeNull();
    expect(feedNext(page(11), pages(page(11)), null, [null])).toBe('x');
    expect(feedNext(page(0), pages(page(0)), null, [null])).toBeNull();
  });

  it("ask for a person's posts by their id", async () => {
    const asked: string[] = [];
    server.use(
      http.get(api('/posts/user/:id'), ({ params, request }) => {
        asked.push(`${String(params.id)}${new URL(request.url).search}`);
        return HttpResponse.json(posts(2, 5));
      }),
    );
    const client = testQueryClient();
    const { result } = renderHook(() => useInfiniteQuery(postQueries.byUser('42', null)), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(asked).toEqual(['42?limit=10']);
    expect(result.current.hasNextPage).toBe(false);
  });
});

describe('detail', () => {
  it('reads one post', async () => {
    server.use(http.get(api('/posts/7'), () => HttpResponse.json(postJson('7', { user_liked: 'true' }))));
    const post = await testQueryClient().fetchQuery(postQueries.detail('7', null));
    expect(post).toMatchObject({ id: '7', type: 'lyrics', user_liked: true });
  });

  it('fails with the ApiError of a 404 at once', async () => {
    let calls = 0;
    server.use(
      http.get(api('/posts/7'), () => {
        calls += 1;
        return HttpResponse.json({ detail: 'Post not found' }, { status: 404 });
      }),
    );
    const error: unknown = await testQueryClient()
      .fetchQuery(postQueries.detail('7', null))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, serverMessage: 'Post not found' });
    expect(calls).toBe(1);
  });

  it('fails in spec §8 words for a post of an unsupported type', async () => {
    server.use(http.get(api('/posts/7'), () => HttpResponse.json(postJson('7', { type: 'poll' }))));
    await expect(testQueryClient().fetchQuery(postQueries.detail('7'))).rejects.toThrow(
      'Failed to transform post of type: poll',
    );
  });
});

describe('postsErrorMessage (spec §8 Feeds)', () => {
  it.each([
    [new ApiError(500, undefined), 'HTTP error! status: 500'],
    [new ApiError(404, { detail: 'x' }), 'HTTP error! status: 404'],
    [new ApiError(401, undefined, { sessionExpired: true }), SESSION_EXPIRED_MESSAGE],
    [new NetworkError(new TypeError('offline')), 'Failed to load feed'],
  ])('%s → %s', (error, text) => {
    expect(postsErrorMessage(error, 'Failed to load feed')).toBe(text);
  });
});

describe('like state', () => {
  it('flips and moves the count by one, never below 0', () => {
    expect(toggledLike({ user_liked: false, likes_count: 2 })).toEqual({ user_liked: true, likes_count: 3 });
    expect(toggledLike({ user_liked: true, likes_count: 2 })).toEqual({ user_liked: false, likes_count: 1 });
    expect(toggledLike({ user_liked: true, likes_count: 0 })).toEqual({ user_liked: false, likes_count: 0 });
  });

  it("takes the server's liked, or user_liked, and its count", () => {
    const optimistic = { user_liked: true, likes_count: 3 };
    expect(likeAnswer({ liked: false, likes_count: 9 }, optimistic)).toEqual({ user_liked: false, likes_count: 9 });
    expect(likeAnswer({ user_liked: false, likes_count: 1 }, optimistic)).toEqual({ user_liked: false, likes_count: 1 });
    expect(likeAnswer({ liked: true }, optimistic)).toEqual({ user_liked: true, likes_count: 3 });
    expect(likeAnswer(undefined, optimistic)).toEqual(optimistic);
  });
});

/** A cache holding post 7 in two feeds (on the second page of one) and in its detail. */
function seeded(post: Partial<PostInput> = {}) {
  const client = testQueryClient();
  const shown = (json: PostInput) => toDisplayPost(json) as DisplayPost;
  const seven = shown(postJson('7', post));
  const page = (list: DisplayPost[]): PostPage => ({ posts: list, received: list.length, lastId: list.at(-1)?.id ?? null });
  const pages = (...list: PostPage[]): PostPages => ({ pages: list, pageParams: list.map(() => null) });
  const other = shown(postJson('9'));
  client.setQueryData(postQueries.feed('for-you', '100').queryKey, pages(page([other]), page([seven])));
  client.setQueryData(postQueries.byUser('42', '100').queryKey, pages(page([seven, other])));
  client.setQueryData(postQueries.detail('7', '100').queryKey, seven);
  const read = () => ({
    feed: client.getQueryData<PostPages>(postQueries.feed('for-you', '100').queryKey)?.pages[1]?.posts[0],
    list: client.getQueryData<PostPages>(postQueries.byUser('42', '100').queryKey)?.pages[0]?.posts[0],
    detail: client.getQueryData<DisplayPost>(postQueries.detail('7', '100').queryKey),
    untouched: client.getQueryData<PostPages>(postQueries.feed('for-you', '100').queryKey)?.pages[0]?.posts[0],
  });
  return { client, read };
}

function likeState(post: DisplayPost | undefined) {
  return post ? { user_liked: post.user_liked, likes_count: post.likes_count } : undefined;
}

describe('useLikePost', () => {
  it('flips the post everywhere at once, then takes the server answer', async () => {
    let answer: () => void = () => {};
    const posted: string[] = [];
    server.use(
      http.post(api('/posts/:id/like'), async ({ params }) => {
        posted.push(String(params.id));
        await new Promise<void>((r) => (answer = r));
        return HttpResponse.json({ liked: true, user_liked: true, likes_count: 10 });
      }),
    );
    const { client, read } = seeded({ likes_count: 2 });
    const { result } = renderHook(() => useLikePost('7'), { wrapper: wrapper(client) });

    act(() => result.current.mutate({ postId: '7', user_liked: false, likes_count: 2 }));
    await waitFor(() => expect(likeState(read().feed)).toEqual({ user_liked: true, likes_count: 3 }));
    expect(likeState(read().list)).toEqual({ user_liked: true, likes_count: 3 });
    expect(likeState(read().detail)).toEqual({ user_liked: true, likes_count: 3 });
    expect(likeState(read().untouched)).toEqual({ user_liked: false, likes_count: 2 });

    answer();
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(posted).toEqual(['7']);
    expect(likeState(read().feed)).toEqual({ user_liked: true, likes_count: 10 });
    expect(likeState(read().list)).toEqual({ user_liked: true, likes_count: 10 });
    expect(likeState(read().detail)).toEqual({ user_liked: true, likes_count: 10 });
  });

  it('puts the previous state back on any error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(api('/posts/:id/like'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    const { client, read } = seeded({ likes_count: 5, user_liked: true });
    const { result } = renderHook(() => useLikePost('7'), { wrapper: wrapper(client) });
    act(() => result.current.mutate({ postId: '7', user_liked: true, likes_count: 5 }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(likeState(read().feed)).toEqual({ user_liked: true, likes_count: 5 });
    expect(likeState(read().detail)).toEqual({ user_liked: true, likes_count: 5 });
    expect(console.error).toHaveBeenCalledWith('Like failed', expect.any(ApiError));
  });
});

describe('useDeletePost', () => {
  it('deletes, takes the post out of every list and forgets its detail', async () => {
    const deleted: string[] = [];
    server.use(
      http.delete(api('/posts/:id'), ({ params }) => {
        deleted.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { client, read } = seeded();
    const { result } = renderHook(() => useDeletePost(), { wrapper: wrapper(client) });
    await act(() => result.current.mutateAsync('7'));
    expect(deleted).toEqual(['7']);
    const feed = client.getQueryData<PostPages>(postQueries.feed('for-you', '100').queryKey);
    expect(feed?.pages.map((p) => p.posts.map((post) => post.id))).toEqual([['9'], []]);
    expect(read().list?.id).toBe('9');
    expect(read().detail).toBeUndefined();
  });

  it('leaves the lists as they were when it fails', async () => {
    server.use(http.delete(api('/posts/:id'), () => HttpResponse.json({ detail: 'Not yours' }, { status: 403 })));
    const { client, read } = seeded();
    const { result } = renderHook(() => useDeletePost(), { wrapper: wrapper(client) });
    await act(() => result.current.mutateAsync('7').catch(() => undefined));
    expect(result.current.error).toMatchObject({ status: 403 });
    expect(read().feed?.id).toBe('7');
    expect(read().detail?.id).toBe('7');
  });
});
