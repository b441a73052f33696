import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfilePosts, nextProfilePostsOffset, type ProfilePostsState } from './profile-posts';

const page = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: String(from + i) }));

function state(overrides: Partial<ProfilePostsState<{ id: string }>> = {}): ProfilePostsState<{ id: string }> {
  return { status: 'success', posts: [], hasMore: false, loadingMore: false, loadMore: vi.fn(), retry: vi.fn(), ...overrides };
}

describe('nextProfilePostsOffset', () => {
  it('offers more only after a page of exactly 10', () => {
    expect(nextProfilePostsOffset(page(10), [page(10)])).toBe(10);
    expect(nextProfilePostsOffset(page(10, 10), [page(10), page(10, 10)])).toBe(20);
    expect(nextProfilePostsOffset(page(9), [page(10), page(9)])).toBeUndefined();
    expect(nextProfilePostsOffset(page(11), [page(11)])).toBeUndefined();
    expect(nextProfilePostsOffset([], [[]])).toBeUndefined();
  });
});

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
    expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();
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
