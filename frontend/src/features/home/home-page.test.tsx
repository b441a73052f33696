import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { getToken } from '../../lib/token-storage';
import { HomePage } from './home-page';

function postJson(id: string, title: string) {
  return {
    id,
    type: 'lyrics',
    caption: null,
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 1,
    comments_count: 0,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
    lyrics: { title, artist: 'Ana', lyrics_text: 'la', parts: [] },
  };
}

/** Both feeds, counting the calls to each. */
function feeds(options: { forYou?: unknown[]; listened?: unknown[] | { status: number } } = {}) {
  const calls = { forYou: 0, listened: 0 };
  server.use(
    http.get(api('/posts/feed'), () => {
      calls.forYou += 1;
      return HttpResponse.json(options.forYou ?? [postJson('2', 'Everyone Song')]);
    }),
    http.get(api('/posts/listened-to'), () => {
      calls.listened += 1;
      const listened = options.listened ?? [postJson('1', 'Friend Song')];
      return Array.isArray(listened)
        ? HttpResponse.json(listened)
        : HttpResponse.json({ detail: 'Not authenticated' }, { status: listened.status });
    }),
  );
  return calls;
}

const renderHome = () => renderPage(<HomePage />, { route: '/home', path: '/home' });
const listenedPanel = () => screen.getByRole('tabpanel', { name: 'Listened to' });

describe('HomePage tabs', () => {
  it("opens on 'For you' with its feed", async () => {
    signedInAs(null);
    const calls = feeds();
    renderHome();
    expect(screen.getByRole('tab', { name: 'For you' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'false');
    expect(screen.queryByRole('heading', { name: 'Listened To Feed' })).toBeNull();
    const panel = screen.getByRole('tabpanel', { name: 'For you' });
    expect(await within(panel).findByRole('heading', { name: 'Everyone Song' })).toBeInTheDocument();
    expect(calls).toEqual({ forYou: 1, listened: 0 });
  });

  it('asks for the feed beside the session check, not after it', async () => {
    // The session check answers only when the feed has been asked for.
    let feedAsked!: () => void;
    const asked = new Promise<void>((resolve) => (feedAsked = resolve));
    server.use(
      http.get(api('/authorization/session'), async () => {
        await asked;
        return HttpResponse.json({ user: null });
      }),
      http.get(api('/posts/feed'), () => {
        feedAsked();
        return HttpResponse.json([postJson('2', 'Everyone Song')]);
      }),
    );
    renderHome();
    const panel = screen.getByRole('tabpanel', { name: 'For you' });
    expect(await within(panel).findByRole('heading', { name: 'Everyone Song' })).toBeInTheDocument();
  });

  it('keeps the open tab in the address, so a reload opens the same feed', async () => {
    signedInAs(ADA);
    const calls = feeds();
    renderPage(<HomePage />, { route: '/home?feed=listened-to', path: '/home' });
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(listenedPanel()).findByRole('heading', { name: 'Friend Song' })).toBeInTheDocument();
    expect(calls).toEqual({ forYou: 0, listened: 1 });

    await userEvent.click(screen.getByRole('tab', { name: 'For you' }));
    expect(currentLocation()).toBe('/home');
    await userEvent.click(screen.getByRole('tab', { name: 'Listened to' }));
    expect(currentLocation()).toBe('/home?feed=listened-to');
    expect(calls).toEqual({ forYou: 1, listened: 1 });
  });

  it("'Listened to' shows its heading and note", async () => {
    signedInAs(ADA);
    feeds();
    renderHome();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Listened to' }));
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'Listened To Feed' })).toBeVisible();
    expect(screen.getByText("Posts from users you're listening to")).toBeVisible();
  });

  it('moves between tabs with the arrow keys', async () => {
    signedInAs(null);
    feeds();
    renderHome();
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'For you' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'For you' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe("the 'Listened to' feed", () => {
  it('shows the posts of the people the viewer listens to', async () => {
    signedInAs(ADA);
    const calls = feeds();
    renderHome();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Listened to' }));
    expect(await within(listenedPanel()).findByRole('heading', { name: 'Friend Song' })).toBeInTheDocument();
    expect(calls.listened).toBe(1);
  });

  it("says 'Follow some users to see their posts here!' when empty", async () => {
    signedInAs(ADA);
    feeds({ listened: [] });
    renderHome();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Listened to' }));
    expect(await within(listenedPanel()).findByText('No posts yet')).toBeInTheDocument();
    expect(within(listenedPanel()).getByText('Follow some users to see their posts here!')).toBeInTheDocument();
  });

  it('invites a guest to sign in instead of asking the server', async () => {
    signedInAs(null);
    const calls = feeds();
    renderHome();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Listened to' }));
    const signIn = await within(listenedPanel()).findByRole('button', { name: 'Sign in' });
    expect(within(listenedPanel()).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up');
    expect(calls.listened).toBe(0);
    await user.click(signIn);
    expect(currentLocation()).toBe('/sign-in');
  });

  it("on a 401 says 'Session expired. Please sign in again.' and forgets the token", async () => {
    signedInAs(ADA);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    feeds({ listened: { status: 401 } });
    renderHome();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Listened to' }));
    await waitFor(() => expect(within(listenedPanel()).getByRole('alert')).toHaveTextContent('Session expired. Please sign in again.'));
    expect(getToken()).toBeNull();
    expect(within(listenedPanel()).getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});
