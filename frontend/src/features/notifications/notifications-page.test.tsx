import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { onSessionExpired } from '../../lib/http';
import { clearTokens, getToken } from '../../lib/token-storage';
import type { NotificationJson } from './api';
import { notificationRow as row } from './test-fixtures';
import { NotificationsPage } from './notifications-page';

const DAY = 86_400_000;

/** GET /notifications answering `pages` by offset; returns the offsets asked for. */
function notifications(all: NotificationJson[]) {
  const asked: string[] = [];
  server.use(
    http.get(api('/notifications'), ({ request }) => {
      const url = new URL(request.url);
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      asked.push(`${limit}@${offset} ${request.headers.get('authorization') ?? ''}`);
      return HttpResponse.json(all.slice(offset, offset + limit));
    }),
  );
  return asked;
}

/** PATCH /notifications/{id}/read: the ids marked read, in order. */
function markReadCalls(): string[] {
  const patched: string[] = [];
  server.use(
    http.patch(api('/notifications/:id/read'), ({ params }) => {
      patched.push(String(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return patched;
}

function renderNotifications() {
  return renderPage(<NotificationsPage />, { route: '/notifications', path: '/notifications' });
}

const rowOf = (login: string) => screen.getByRole('link', { name: login }).closest('[data-read]') as HTMLElement;

describe('NotificationsPage', () => {
  it('lists each notification: dot by type, sender, action text and how long ago', async () => {
    signedInAs(ADA);
    const asked = notifications([
      row('1', { type: 'mention', message: 'mentioned you in a comment: “@ada hi”', post_id: 'p1' }),
      row('2', { type: 'comment', message: 'commented on your post: “nice riff”', post_id: 'p2', timestamp: new Date(Date.now() - DAY).toISOString() }),
      row('3', { type: 'listening', timestamp: new Date(Date.now() - 5 * 60_000).toISOString() }),
      row('4', { type: 'other', message: 'liked your post', post_id: 'p3', read: true }),
    ]);
    renderNotifications();
    expect(screen.getByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByText('Loading notifications...')).toBeInTheDocument();

    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(asked).toEqual(['20@0 Bearer test-token']);

    const mention = rowOf('user_1');
    expect(mention).toHaveAttribute('data-type', 'mention');
    expect(mention).toHaveAttribute('data-read', 'false');
    expect(within(mention).getByTestId('notification-dot')).toBeInTheDocument();
    expect(within(mention).getByRole('link', { name: 'user_1' })).toHaveAttribute('href', '/user/u-1');
    expect(within(mention).getByRole('link', { name: 'mentioned you in a comment: “@ada hi”' })).toHaveAttribute('href', '/post/p1');
    expect(within(mention).getByText('3 days ago').tagName).toBe('TIME');

    const comment = rowOf('user_2');
    expect(comment).toHaveAttribute('data-type', 'comment');
    expect(within(comment).getByRole('link', { name: 'commented on your post: “nice riff”' })).toHaveAttribute('href', '/post/p2');
    expect(within(comment).getByText('1 day ago')).toBeInTheDocument();

    // A listening row is about no post: its action text is plain text.
    const listening = rowOf('user_3');
    expect(within(listening).getByText('started listening to you').tagName).toBe('SPAN');
    expect(within(listening).getByText('5m ago')).toBeInTheDocument();
    // A like ('other') opens the post it is about, as mentions and comments do.
    const liked = rowOf('user_4');
    expect(liked).toHaveAttribute('data-type', 'other');
    expect(within(liked).getByRole('link', { name: 'liked your post' })).toHaveAttribute('href', '/post/p3');

    // Read rows are dimmed (grey dot), and screen readers hear which are unread.
    expect(liked).toHaveAttribute('data-read', 'true');
    expect(within(mention).getByText('Unread:')).toHaveClass('visually-hidden');
    expect(within(liked).queryByText('Unread:')).toBeNull();
  });

  it('a click on a row marks it read, then opens the sender’s profile', async () => {
    signedInAs(ADA);
    notifications([row('1')]);
    const patched = markReadCalls();
    renderNotifications();
    await userEvent.setup().click(await screen.findByText('started listening to you'));
    expect(currentLocation()).toBe('/user/u-1');
    await waitFor(() => expect(patched).toEqual(['1']));
  });

  it.each([
    ['a comment', 'comment', 'commented on your post: “ok”'],
    ['a like', 'other', 'liked your post'],
  ] as const)('the action text of %s opens the post, marking it read too', async (_, type, message) => {
    signedInAs(ADA);
    notifications([row('1', { type, message, post_id: 'p 7' })]);
    const patched = markReadCalls();
    renderNotifications();
    await userEvent.setup().click(await screen.findByRole('link', { name: message }));
    expect(currentLocation()).toBe('/post/p%207');
    await waitFor(() => expect(patched).toEqual(['1']));
  });

  it('the action text of a like without a post is plain text (the row opens the profile)', async () => {
    signedInAs(ADA);
    notifications([row('1', { type: 'other', message: 'liked your post', post_id: null })]);
    renderNotifications();
    expect((await screen.findByText('liked your post')).tagName).toBe('SPAN');
    expect(screen.queryByRole('link', { name: 'liked your post' })).toBeNull();
  });

  it('shows a row read at once, and does not ask again for a row already read', async () => {
    signedInAs(ADA);
    notifications([row('1'), row('2', { read: true })]);
    const patched: string[] = [];
    server.use(
      http.patch(api('/notifications/:id/read'), async ({ params }) => {
        patched.push(String(params.id));
        await new Promise(() => {});
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderPage(<NotificationsPage />, { route: '/notifications', path: '*' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'user_1' }));
    await waitFor(() => expect(rowOf('user_1')).toHaveAttribute('data-read', 'true'));
    await user.click(screen.getByRole('link', { name: 'user_2' }));
    expect(patched).toEqual(['1']);
  });

  it('only logs a failure to mark read (the profile still opens)', async () => {
    signedInAs(ADA);
    notifications([row('1')]);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.patch(api('/notifications/:id/read'), () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })));
    renderNotifications();
    await userEvent.setup().click(await screen.findByRole('link', { name: 'user_1' }));
    expect(currentLocation()).toBe('/user/u-1');
    await waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Failed to mark notification as read', expect.objectContaining({ status: 404 })),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("offers 'Load More' once the list holds 20, reading 'Loading...' while it fetches", async () => {
    signedInAs(ADA);
    const all = Array.from({ length: 25 }, (_, i) => row(String(i + 1)));
    const asked = notifications(all);
    let release: () => void = () => {};
    renderNotifications();
    await screen.findByRole('link', { name: 'user_20' });
    expect(screen.getAllByRole('listitem')).toHaveLength(20);

    server.use(
      http.get(api('/notifications'), async ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        asked.push(`20@${offset}`);
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json(all.slice(offset, offset + 20));
      }),
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByRole('button', { name: 'Loading...' })).toHaveAttribute('aria-disabled', 'true');
    release();
    await screen.findByRole('link', { name: 'user_25' });
    expect(screen.getAllByRole('listitem')).toHaveLength(25);
    expect(asked.at(-1)).toBe('20@20');
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("has no 'Load More' under 20", async () => {
    signedInAs(ADA);
    notifications(Array.from({ length: 19 }, (_, i) => row(String(i + 1))));
    renderNotifications();
    await screen.findByRole('link', { name: 'user_19' });
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("says 'No notifications yet' when there are none", async () => {
    signedInAs(ADA);
    notifications([]);
    renderNotifications();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it("'Mark all as read' shows while something is unread and marks every row read", async () => {
    signedInAs(ADA);
    let all = [row('1'), row('2'), row('3', { read: true })];
    const posted = vi.fn();
    server.use(
      http.get(api('/notifications'), () => HttpResponse.json(all)),
      http.get(api('/notifications/unread-count'), () => HttpResponse.json({ unread: all.filter((n) => !n.read).length })),
      http.post(api('/notifications/read-all'), () => {
        posted();
        all = all.map((n) => ({ ...n, read: true }));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderNotifications();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(rowOf('user_1')).toHaveAttribute('data-read', 'true'));
    expect(rowOf('user_2')).toHaveAttribute('data-read', 'true');
    expect(posted).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull());
  });

  it('hides Mark all as read when everything is read', async () => {
    signedInAs(ADA);
    notifications([row('1', { read: true })]);
    renderNotifications();
    await screen.findByRole('link', { name: 'user_1' });
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});

describe('NotificationsPage errors (spec §8)', () => {
  it("says 'Failed to fetch notifications: {status text}' with Try Again, which asks again", async () => {
    signedInAs(ADA);
    server.use(http.get(api('/notifications'), () => new HttpResponse('boom', { status: 503, statusText: 'Service Unavailable' })));
    renderNotifications();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch notifications: Service Unavailable');
    notifications([row('1')]);
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('link', { name: 'user_1' })).toBeInTheDocument();
  });

  it('on a 401 forgets the stored token and reports the session expired (the guard takes over)', async () => {
    signedInAs(ADA);
    const expiries: string[] = [];
    const stop = onSessionExpired(({ notice }) => expiries.push(notice));
    server.use(http.get(api('/notifications'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })));
    renderNotifications();
    await waitFor(() => expect(expiries).toEqual(['Session expired. Please sign in again.']));
    stop();
    expect(getToken()).toBeNull();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Authentication required. Please sign in to view notifications.',
    );
  });

  it('without a stored token asks nothing and says to sign in', async () => {
    signedInAs(ADA);
    clearTokens();
    const asked = notifications([row('1')]);
    renderNotifications();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Authentication required. Please sign in to view notifications.');
    expect(asked).toEqual([]);
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Sign in' }));
    expect(currentLocation()).toBe('/sign-in');
  });

  it("says 'Failed to load notifications' when the server cannot be reached", async () => {
    signedInAs(ADA);
    server.use(http.get(api('/notifications'), () => HttpResponse.error()));
    renderNotifications();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load notifications');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
