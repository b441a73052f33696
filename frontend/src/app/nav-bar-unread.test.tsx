/**
 * The live unread badge on the nav bar's Notifications links: the count (GET
 * /notifications/unread-count), kept current by the server's stream, and what changes it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../test/server';
import { renderPage } from '../test/render';
import { ADA, signedInAs } from '../test/session';
import { FakeEventSource, installFakeEventSource, openStreams } from '../test/event-source';
import { NotificationsPage } from '../features/notifications/notifications-page';
import { notificationRow as row, unreadCount } from '../features/notifications/test-fixtures';
import { NavBar } from './nav-bar';

const sideBar = () => screen.getByRole('complementary', { name: 'Main navigation' });
const bottomBar = () =>
  screen.getAllByRole('navigation', { name: 'Main' }).find((nav) => !sideBar().contains(nav))!;

beforeEach(() => {
  installFakeEventSource();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('The unread badge', () => {
  it('shows the count on both Notifications links and says it in their names', async () => {
    signedInAs(ADA);
    unreadCount(3);
    renderPage(<NavBar />, { route: '/home' });
    const side = await within(sideBar()).findByRole('link', { name: 'Notifications, 3 unread' });
    expect(within(side).getByTestId('unread-badge')).toHaveAttribute('data-count', '3');
    const bottom = within(bottomBar()).getByRole('link', { name: 'Notifications, 3 unread' });
    expect(within(bottom).getByTestId('unread-badge')).toHaveAttribute('data-count', '3');
    expect(within(bottom).getByTestId('unread-badge')).toHaveAttribute('aria-hidden', 'true');
  });

  it("says '99+' past 99 and nothing at 0", async () => {
    signedInAs(ADA);
    const count = unreadCount(100);
    renderPage(<NavBar />, { route: '/home' });
    const side = await within(sideBar()).findByRole('link', { name: 'Notifications, 99+ unread' });
    expect(within(side).getByTestId('unread-badge')).toHaveAttribute('data-count', '99+');

    count.unread = 0;
    openStreams()[0]!.emit('unread', { unread: 0 });
    expect(await within(sideBar()).findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });

  it('asks nothing and opens no stream for a guest', async () => {
    signedInAs(null);
    const count = unreadCount(4);
    renderPage(<NavBar />, { route: '/home' });
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Sign in' })).toHaveLength(2));
    expect(count.asked).toBe(0);
    expect(FakeEventSource.opened).toHaveLength(0);
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });

  it('listens to the stream of the API (with credentials across origins) and closes it on unmount', async () => {
    signedInAs(ADA);
    unreadCount(1);
    const { unmount } = renderPage(<NavBar />, { route: '/home' });
    await within(sideBar()).findByRole('link', { name: 'Notifications, 1 unread' });
    expect(FakeEventSource.opened).toHaveLength(1);
    const stream = FakeEventSource.opened[0]!;
    expect(stream.url).toBe(api('/notifications/stream'));
    expect(stream.withCredentials).toBe(true);
    unmount();
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
  });

  it("an 'unread' event changes the badge at once and brings the new row to an open notifications page", async () => {
    signedInAs(ADA);
    const count = unreadCount(1);
    let rows = [row('1')];
    server.use(http.get(api('/notifications'), () => HttpResponse.json(rows)));
    renderPage(
      <>
        <NavBar />
        <NotificationsPage />
      </>,
      { route: '/notifications' },
    );
    await screen.findByRole('link', { name: 'user_1' });
    const asked = count.asked;

    rows = [row('2', { type: 'mention', message: 'mentioned you in a comment: “@ada listen”', post_id: 'p9' }), ...rows];
    openStreams()[0]!.emit('unread', { unread: 2 });
    // Straight from the event: the count is not asked again.
    expect(await within(sideBar()).findByRole('link', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'user_2' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'mentioned you in a comment: “@ada listen”' })).toHaveAttribute(
      'href',
      '/post/p9',
    );
    expect(count.asked).toBe(asked);
  });

  it('goes down at once when a row is marked read', async () => {
    signedInAs(ADA);
    unreadCount(2);
    let answer: () => void = () => {};
    server.use(
      http.get(api('/notifications'), () => HttpResponse.json([row('1'), row('2')])),
      http.patch(api('/notifications/:id/read'), async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return new HttpResponse(null, { status: 204 });
      }),
      http.post(api('/notifications/read-all'), () => new HttpResponse(null, { status: 204 })),
    );
    renderPage(
      <>
        <NavBar />
        <NotificationsPage />
      </>,
      { route: '/notifications' },
    );
    const user = userEvent.setup();
    await within(sideBar()).findByRole('link', { name: 'Notifications, 2 unread' });
    await user.click(await screen.findByRole('link', { name: 'user_1' }));
    // Before the server has answered.
    expect(await within(sideBar()).findByRole('link', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    answer();
  });

  it('Mark all as read empties the badge at once', async () => {
    signedInAs(ADA);
    const count = unreadCount(2);
    let rows = [row('1'), row('2')];
    let answer: () => void = () => {};
    server.use(
      http.get(api('/notifications'), () => HttpResponse.json(rows)),
      http.post(api('/notifications/read-all'), async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        count.unread = 0;
        rows = rows.map((n) => ({ ...n, read: true }));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderPage(
      <>
        <NavBar />
        <NotificationsPage />
      </>,
      { route: '/notifications' },
    );
    await within(sideBar()).findByRole('link', { name: 'Notifications, 2 unread' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Mark all as read' }));
    // Before the server has answered.
    expect(await within(sideBar()).findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    answer();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull());
  });

  it("'signed-out' closes the stream and asks the session check again", async () => {
    signedInAs(ADA);
    unreadCount(1);
    renderPage(<NavBar />, { route: '/home' });
    await within(sideBar()).findByRole('link', { name: 'Notifications, 1 unread' });
    const stream = openStreams()[0]!;

    const check = signedInAs(null);
    stream.emit('signed-out');
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Sign in' })).toHaveLength(2));
    expect(check.calls()).toBe(1);
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('asks for the count when the window regains focus only once the stream is gone for good', async () => {
    signedInAs(ADA);
    const count = unreadCount(1);
    renderPage(<NavBar />, { route: '/home' });
    await within(sideBar()).findByRole('link', { name: 'Notifications, 1 unread' });
    const focus = () => {
      act(() => {
        window.dispatchEvent(new Event('visibilitychange'));
      });
    };

    const stream = openStreams()[0]!;
    stream.fail();
    focus();
    expect(count.asked).toBe(1);

    count.unread = 5;
    stream.fail({ forGood: true });
    focus();
    await within(sideBar()).findByRole('link', { name: 'Notifications, 5 unread' });
    expect(count.asked).toBe(2);
  });
});
