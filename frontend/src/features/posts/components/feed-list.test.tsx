import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { renderPage } from '../../../test/render';
import { postQueries } from '../api';
import type { PostInput } from '../types';
import { FeedList } from './feed-list';

function postJson(id: string): PostInput {
  return {
    id,
    type: 'lyrics',
    caption: `caption ${id}`,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 0,
    comments_count: 0,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
    lyrics: { title: `Song ${id}`, artist: 'Ana', lyrics_text: 'la', parts: [] },
  };
}

const page = (n: number, from: number) => Array.from({ length: n }, (_, i) => postJson(String(from - i)));

function Feed() {
  return <FeedList query={useInfiniteQuery(postQueries.feed('for-you', null))} label="For you" />;
}

const renderFeed = () => renderPage(<Feed />, { route: '/home', path: '/home' });

describe('FeedList', () => {
  it("shows a spinner, then the posts with 'Load More' ('Loading...' while busy), hidden after a short page", async () => {
    let release: () => void = () => {};
    server.use(
      http.get(api('/posts/feed'), async ({ request }) => {
        const before = new URL(request.url).searchParams.get('before');
        if (!before) return HttpResponse.json(page(10, 100));
        await new Promise<void>((r) => (release = r));
        return HttpResponse.json(page(4, 90));
      }),
    );
    renderFeed();
    expect(screen.getByRole('status')).toHaveTextContent('Loading posts');
    expect(await screen.findAllByRole('article')).toHaveLength(10);
    expect(screen.getByRole('list', { name: 'For you' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    const busy = await screen.findByRole('button', { name: 'Loading...' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    release();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(14));
    expect(screen.queryByRole('button', { name: /Load More|Loading\.\.\./ })).toBeNull();
    expect(screen.getByText('caption 87')).toBeInTheDocument();
  });

  it('offers no Load More after a first page of fewer than 10', async () => {
    server.use(http.get(api('/posts/feed'), () => HttpResponse.json(page(9, 100))));
    renderFeed();
    expect(await screen.findAllByRole('article')).toHaveLength(9);
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("shows the empty state: 'No posts yet', 'Be the first to share something!'", async () => {
    server.use(http.get(api('/posts/feed'), () => HttpResponse.json([])));
    renderFeed();
    expect(await screen.findByText('No posts yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to share something!')).toBeInTheDocument();
  });

  it("shows 'HTTP error! status: {code}' with 'Try Again', which asks again", async () => {
    let status = 404;
    server.use(
      http.get(api('/posts/feed'), () =>
        status === 200 ? HttpResponse.json(page(1, 5)) : HttpResponse.json({ detail: 'x' }, { status }),
      ),
    );
    renderFeed();
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 404');
    status = 200;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('caption 5')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says 'Failed to load feed' when the server cannot be reached", async () => {
    server.use(http.get(api('/posts/feed'), () => HttpResponse.error()));
    renderFeed();
    expect(await screen.findByRole('alert', {}, { timeout: 8000 })).toHaveTextContent('Failed to load feed');
  });

  it("keeps the posts when 'Load More' fails, with 'Try Again' for that page", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let failMore = true;
    server.use(
      http.get(api('/posts/feed'), ({ request }) => {
        if (!new URL(request.url).searchParams.get('before')) return HttpResponse.json(page(10, 100));
        return failMore ? HttpResponse.json({ detail: 'x' }, { status: 403 }) : HttpResponse.json(page(2, 90));
      }),
    );
    renderFeed();
    await screen.findAllByRole('article');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 403');
    expect(screen.getAllByRole('article')).toHaveLength(10);
    failMore = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
