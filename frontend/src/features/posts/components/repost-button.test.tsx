import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { renderPage } from '../../../test/render';
import { ADA, signedInAs } from '../../../test/session';
import { postQueries } from '../api';
import type { PostInput } from '../types';
import { RepostButton } from './repost-button';

function postJson(overrides: Partial<PostInput> = {}): PostInput {
  return {
    id: '7',
    type: 'lyrics',
    caption: null,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 0,
    comments_count: 0,
    reposts_count: 2,
    user_reposted: false,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
    lyrics: { title: 'Song', artist: 'Ana', lyrics_text: 'la', parts: [] },
    ...overrides,
  };
}

function Post() {
  const { data } = useQuery(postQueries.detail('7', ADA.id));
  return data ? <RepostButton post={data} /> : <p>Loading post</p>;
}

function renderPost(post: PostInput = postJson()) {
  server.use(http.get(api('/posts/7'), () => HttpResponse.json(post)));
  renderPage(<Post />, { route: '/post/7', path: '/post/:id' });
}

describe('RepostButton', () => {
  it('flips at once, then shows the server’s count; pressed again it is undone', async () => {
    signedInAs(ADA);
    renderPost();
    const calls: string[] = [];
    let answer = { user_reposted: true, reposts_count: 9 };
    server.use(
      http.post(api('/posts/:id/repost'), ({ params }) => {
        calls.push(String(params.id));
        return HttpResponse.json(answer);
      }),
    );
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Repost, 2 reposts' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(button).toHaveAccessibleName('Repost, 9 reposts'));
    answer = { user_reposted: false, reposts_count: 8 };
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled'));
    await user.click(button);
    await waitFor(() => expect(button).toHaveAccessibleName('Repost, 8 reposts'));
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(calls).toEqual(['7', '7']);
  });

  it('puts the state back and shows the server’s words when refused', async () => {
    signedInAs(ADA);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPost();
    server.use(
      http.post(api('/posts/:id/repost'), () =>
        HttpResponse.json({ detail: 'Too many reposts in a short time. Please try again in 4 minutes.' }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Repost, 2 reposts' });
    await user.click(button);
    await waitFor(() => expect(screen.getByTestId('toast')).toHaveTextContent('Too many reposts'));
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(button).toHaveAccessibleName('Repost, 2 reposts');
  });

  it('asks a guest to sign in without calling', async () => {
    signedInAs(null);
    renderPost();
    let called = false;
    server.use(http.post(api('/posts/:id/repost'), () => ((called = true), HttpResponse.json({}))));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Repost, 2 reposts' }));
    expect(screen.getByTestId('toast')).toHaveTextContent('Authentication required. Please sign in.');
    expect(called).toBe(false);
  });

  it('on one’s own post shows only how many reposted it, once someone did', async () => {
    signedInAs({ ...ADA, id: '42' });
    renderPost();
    expect(await screen.findByRole('img', { name: '2 reposts' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
