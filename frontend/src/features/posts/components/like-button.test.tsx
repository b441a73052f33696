import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { currentLocation, renderPage } from '../../../test/render';
import { ADA, signedInAs } from '../../../test/session';
import { getToken } from '../../../lib/token-storage';
import { postQueries } from '../api';
import type { PostInput } from '../types';
import { LikeButton, formatCount } from './like-button';

function postJson(overrides: Partial<PostInput> = {}): PostInput {
  return {
    id: '7',
    type: 'lyrics',
    caption: null,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 4,
    comments_count: 0,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
    lyrics: { title: 'Song', artist: 'Ana', lyrics_text: 'la', parts: [] },
    ...overrides,
  };
}

/** Two like buttons of the same post, both reading the post page's cache, as on a real screen. */
function Twin() {
  const { data } = useQuery(postQueries.detail('7', ADA.id));
  if (!data) return <p>Loading post</p>;
  return (
    <>
      <LikeButton post={data} />
      <div data-testid="twin">
        <LikeButton post={data} />
      </div>
    </>
  );
}

function renderTwin(post: PostInput = postJson()) {
  server.use(http.get(api('/posts/7'), () => HttpResponse.json(post)));
  renderPage(<Twin />, { route: '/post/7', path: '/post/:id' });
}

const like = () => screen.getAllByRole('button', { name: /^Like, / })[0] as HTMLElement;
const twin = () => within(screen.getByTestId('twin')).getByRole('button');

describe('LikeButton', () => {
  it('flips at once, waits (aria-disabled) while the like travels, then shows the server count', async () => {
    signedInAs(ADA);
    renderTwin();
    let answer: () => void = () => {};
    const calls: string[] = [];
    server.use(
      http.post(api('/posts/:id/like'), async ({ params, request }) => {
        calls.push(`${String(params.id)} ${request.headers.get('authorization') ?? ''}`);
        await new Promise<void>((r) => (answer = r));
        return HttpResponse.json({ liked: true, user_liked: true, likes_count: 12 });
      }),
    );
    const user = userEvent.setup();
    await screen.findAllByRole('button', { name: 'Like, 4 likes' });

    await user.click(like());
    expect(like()).toHaveAttribute('aria-pressed', 'true');
    expect(like()).toHaveAccessibleName('Like, 5 likes');
    expect(like()).toHaveAttribute('aria-disabled', 'true');
    // Every button of this post waits, and a second press sends nothing.
    expect(twin()).toHaveAttribute('aria-disabled', 'true');
    await user.click(twin());
    expect(like()).toHaveAttribute('aria-pressed', 'true');

    answer();
    await waitFor(() => expect(like()).toHaveAccessibleName('Like, 12 likes'));
    expect(like()).not.toHaveAttribute('aria-disabled');
    expect(twin()).toHaveAccessibleName('Like, 12 likes');
    expect(calls).toEqual(['7 Bearer test-token']);
  });

  it('unlikes: one less, never below 0', async () => {
    signedInAs(ADA);
    renderTwin(postJson({ user_liked: '1', likes_count: 0 }));
    server.use(http.post(api('/posts/:id/like'), () => HttpResponse.json({ user_liked: false, likes_count: 0 })));
    const button = await screen.findAllByRole('button', { name: 'Like, 0 likes' });
    expect(button[0]).toHaveAttribute('aria-pressed', 'true');
    await userEvent.setup().click(like());
    expect(like()).toHaveAttribute('aria-pressed', 'false');
    expect(like()).toHaveAccessibleName('Like, 0 likes');
  });

  it('puts the state back when the like fails, only logging it', async () => {
    signedInAs(ADA);
    renderTwin();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(api('/posts/:id/like'), () => HttpResponse.text('boom', { status: 500 })));
    await screen.findAllByRole('button', { name: 'Like, 4 likes' });
    await userEvent.setup().click(like());
    await waitFor(() => expect(like()).toHaveAttribute('aria-pressed', 'false'));
    expect(like()).toHaveAccessibleName('Like, 4 likes');
    expect(console.error).toHaveBeenCalledWith('Like failed', expect.objectContaining({ status: 500 }));
    expect(screen.queryByTestId('toast')).toBeNull();
  });

  it("tells a guest 'Authentication required. Please sign in.' without calling, with a way to sign in", async () => {
    signedInAs(null);
    renderTwin();
    const posted = vi.fn();
    server.use(http.post(api('/posts/:id/like'), () => (posted(), HttpResponse.json({}))));
    await screen.findAllByRole('button', { name: 'Like, 4 likes' });
    const user = userEvent.setup();
    await user.click(like());
    expect(screen.getByTestId('toast')).toHaveTextContent('Authentication required. Please sign in.');
    expect(like()).toHaveAttribute('aria-pressed', 'false');
    expect(posted).not.toHaveBeenCalled();
    await user.click(within(screen.getByTestId('toast')).getByRole('button', { name: 'Sign in' }));
    expect(currentLocation()).toBe('/sign-in');
  });

  it('on a 401 puts the state back and says the session expired', async () => {
    signedInAs(ADA);
    renderTwin();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(api('/posts/:id/like'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })));
    await screen.findAllByRole('button', { name: 'Like, 4 likes' });
    await userEvent.setup().click(like());
    expect(await screen.findByTestId('toast')).toHaveTextContent('Session expired. Please sign in again.');
    expect(like()).toHaveAttribute('aria-pressed', 'false');
    expect(like()).toHaveAccessibleName('Like, 4 likes');
    expect(getToken()).toBeNull();
  });
});

describe('formatCount', () => {
  it('writes big counts short', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1200)).toMatch(/^1[.,]2\s?K$/);
  });
});
