import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { renderPage } from '../../../test/render';
import { ADA, signedInAs } from '../../../test/session';
import { ProfilePosts, useProfilePosts, type ProfilePostsState } from './profile-posts';

const page = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: String(from + i) }));

function state(overrides: Partial<ProfilePostsState<{ id: string }>> = {}): ProfilePostsState<{ id: string }> {
  return { status: 'success', posts: [], hasMore: false, loadingMore: false, loadMore: vi.fn(), retry: vi.fn(), ...overrides };
}

describe('ProfilePosts', () => {
  it('shows the empty state with the given words', () => {
    render(<ProfilePosts state={state()} emptyText="Posts will appear below" renderPost={() => null} />);
    expect(screen.getByText('No posts yet')).toBeInTheDocument();
    expect(screen.getByText('Posts will appear below')).toBeInTheDocument();
  });

  it("lists posts with 'Load More', which reads 'Loading...' while busy", async () => {
    const loadMore = vi.fn();
    const { rerender } = render(
      <ProfilePosts
        state={state({ posts: page(2), hasMore: true, loadMore })}
        emptyText=""
        renderPost={(p) => <p>post {p.id}</p>}
      />,
    );
    expect(screen.getByText('post 0')).toBeInTheDocument();
    expect(screen.getByText('post 1')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load More' }));
    expect(loadMore).toHaveBeenCalledOnce();
    rerender(
      <ProfilePosts state={state({ posts: page(2), hasMore: true, loadingMore: true })} emptyText="" renderPost={() => null} />,
    );
    expect(screen.getByRole('button', { name: 'Loading...' })).toHaveAttribute('aria-disabled', 'true');
    rerender(<ProfilePosts state={state({ posts: page(2) })} emptyText="" renderPost={() => null} />);
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("shows an error with 'Try Again'", async () => {
    const retry = vi.fn();
    render(<ProfilePosts state={state({ status: 'error', retry })} emptyText="" renderPost={() => null} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load posts');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});

function postJson(id: number) {
  return {
    id: String(id),
    type: 'lyrics',
    caption: null,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 0,
    comments_count: 0,
    user_liked: false,
    user: { id: '200', login: 'ben', name: 'Ben', tag_id: null, avatar_url: null },
    lyrics: { title: `Song ${id}`, artist: 'Ben', lyrics_text: 'la', parts: [] },
  };
}

/** Ben's posts, newest first, 10 a page by the `before` cursor; records what was asked. */
function bensPosts(total: number) {
  const all = Array.from({ length: total }, (_, i) => postJson(1000 - i));
  const asked: string[] = [];
  server.use(
    http.get(api('/posts/user/:id'), ({ params, request }) => {
      const url = new URL(request.url);
      asked.push(`${String(params.id)}${url.search}`);
      const before = url.searchParams.get('before');
      const from = before ? all.findIndex((p) => p.id === before) + 1 : 0;
      return HttpResponse.json(all.slice(from, from + Number(url.searchParams.get('limit'))));
    }),
  );
  return asked;
}

function Bens() {
  const state = useProfilePosts('200');
  return <ProfilePosts state={state} emptyText="Posts will appear below" renderPost={(p) => <p>{p.id}</p>} />;
}

describe('useProfilePosts', () => {
  it('pages by 10 with the cursor of the last post, and offers more only after exactly 10', async () => {
    signedInAs(null);
    const asked = bensPosts(20);
    renderPage(<Bens />);
    expect(await screen.findByText('1000')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByText('981')).toBeInTheDocument();
    // The second page was full too: one more ask, which comes back empty.
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Load More|Loading/ })).toBeNull());
    expect(asked).toEqual(['200?limit=10', '200?limit=10&before=991', '200?limit=10&before=981']);
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
  });

  it('offers no more after a page of fewer than 10', async () => {
    signedInAs(null);
    bensPosts(7);
    renderPage(<Bens />);
    expect(await screen.findByText('994')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("shows 'HTTP error! status: {n}' with Try Again when the list cannot be loaded", async () => {
    signedInAs(ADA);
    let fail = true;
    server.use(
      http.get(api('/posts/user/:id'), () =>
        fail ? HttpResponse.json({ detail: 'x' }, { status: 404 }) : HttpResponse.json([postJson(5)]),
      ),
    );
    renderPage(<Bens />);
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 404');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('5')).toBeInTheDocument();
  });

  it('shows the empty state when there are none', async () => {
    signedInAs(null);
    bensPosts(0);
    renderPage(<Bens />);
    expect(await screen.findByText('No posts yet')).toBeInTheDocument();
    expect(screen.getByText('Posts will appear below')).toBeInTheDocument();
  });
});
