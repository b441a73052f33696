/**
 * One stream for all the tabs of a browser profile (useUnreadCount): the tab holding the Web
 * Lock listens and passes each event on over a BroadcastChannel; the others apply it. Each
 * "tab" here is a hook with its own query client; the fakes of test/tabs.ts join them.
 */
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { testQueryClient } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { FakeEventSource, installFakeEventSource, openStreams } from '../../test/event-source';
import { FakeBroadcastChannel, installTabs, openChannels, type FakeLockManager } from '../../test/tabs';
import { sessionQueries } from '../../lib/session';
import { notificationQueries, useUnreadCount } from './api';
import { unreadCount } from './test-fixtures';

const LOCK = `selfsound-unread:${ADA.id}`;
const LIST = [...notificationQueries.lists(), ADA.id];

/** A tab of the app: its own query client, its own badge. */
function openTab(viewerId: string | null = ADA.id) {
  const queryClient: QueryClient = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const tab = renderHook((id: string | null) => useUnreadCount(id), { wrapper, initialProps: viewerId });
  return { ...tab, queryClient };
}

/** Lets the fakes' tasks (lock grants, channel messages) run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 10)));

let locks: FakeLockManager;

beforeEach(() => {
  installFakeEventSource();
  locks = installTabs();
  signedInAs(ADA);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useUnreadCount across tabs', () => {
  it('the tab holding the lock opens the one stream and passes its counts to the others', async () => {
    const count = unreadCount(1);
    const first = openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const second = openTab();
    await waitFor(() => expect(second.result.current).toBe(1));
    await settle();
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(locks.state(LOCK)).toEqual({ held: true, waiting: 1 });
    expect(openChannels().map((c) => c.name)).toEqual([LOCK, LOCK]);

    // The server announces a new count: both badges follow, and the list of each goes stale.
    second.queryClient.setQueryData(LIST, []);
    openStreams()[0]!.emit('unread', { unread: 4 });
    await waitFor(() => expect([first.result.current, second.result.current]).toEqual([4, 4]));
    expect(second.queryClient.getQueryState(LIST)?.isInvalidated).toBe(true);
    // Straight from the events: nobody asked the count again.
    expect(count.asked).toBe(2);
  });

  it('a tab that joins shows the count it asked for until the stream speaks', async () => {
    unreadCount(3);
    openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const late = openTab();
    await waitFor(() => expect(late.result.current).toBe(3));
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('when the holding tab closes, another takes over; its new stream sets the count, never adds to it', async () => {
    const count = unreadCount(2);
    const first = openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const second = openTab();
    const third = openTab();
    await waitFor(() => expect(third.result.current).toBe(2));
    openStreams()[0]!.emit('unread', { unread: 2 });

    first.unmount();
    expect(FakeEventSource.opened[0]!.readyState).toBe(FakeEventSource.CLOSED);
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(2));
    await settle();
    // Exactly one of the others took over.
    expect(openStreams()).toHaveLength(1);
    expect(locks.state(LOCK)).toEqual({ held: true, waiting: 1 });
    expect(openChannels()).toHaveLength(2);

    // The server sends the current count first on every connection: the same 2 again, then 5.
    openStreams()[0]!.emit('unread', { unread: 2 });
    await settle();
    expect([second.result.current, third.result.current]).toEqual([2, 2]);
    openStreams()[0]!.emit('unread', { unread: 5 });
    await waitFor(() => expect([second.result.current, third.result.current]).toEqual([5, 5]));
    expect(count.asked).toBe(3);
  });

  it("'signed-out' reaches every tab: streams close, nobody takes over, each asks the session check again", async () => {
    unreadCount(1);
    const first = openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const second = openTab();
    await waitFor(() => expect(second.result.current).toBe(1));
    for (const tab of [first, second]) tab.queryClient.setQueryData(sessionQueries.me().queryKey, ADA);

    openStreams()[0]!.emit('signed-out');
    expect(FakeEventSource.opened[0]!.readyState).toBe(FakeEventSource.CLOSED);
    await waitFor(() =>
      expect(second.queryClient.getQueryState(sessionQueries.me().queryKey)?.isInvalidated).toBe(true),
    );
    expect(first.queryClient.getQueryState(sessionQueries.me().queryKey)?.isInvalidated).toBe(true);
    await settle();
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(locks.state(LOCK)).toEqual({ held: false, waiting: 0 });
  });

  it('a stream gone for good passes the lock on; that tab follows window focus and still hears the others', async () => {
    const count = unreadCount(1);
    const first = openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const second = openTab();
    await waitFor(() => expect(second.result.current).toBe(1));

    FakeEventSource.opened[0]!.fail();
    await settle();
    expect(FakeEventSource.opened).toHaveLength(1);

    FakeEventSource.opened[0]!.fail({ forGood: true });
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(2));
    expect(locks.state(LOCK)).toEqual({ held: true, waiting: 0 });

    FakeEventSource.opened[1]!.emit('unread', { unread: 6 });
    await waitFor(() => expect(first.result.current).toBe(6));
    expect(second.result.current).toBe(6);

    const asked = count.asked;
    count.unread = 7;
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(first.result.current).toBe(7));
    expect(count.asked).toBe(asked + 1);
  });

  it('on unmount a waiting tab leaves the queue and closes its channel', async () => {
    unreadCount(0);
    openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const second = openTab();
    await waitFor(() => expect(locks.state(LOCK).waiting).toBe(1));
    second.unmount();
    await settle();
    expect(locks.state(LOCK)).toEqual({ held: true, waiting: 0 });
    expect(openChannels()).toHaveLength(1);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it("a change of viewer releases the first viewer's lock and takes the new one's", async () => {
    unreadCount(0);
    const tab = openTab();
    await waitFor(() => expect(locks.state(LOCK).held).toBe(true));
    tab.rerender('200');
    await waitFor(() => expect(locks.state('selfsound-unread:200').held).toBe(true));
    expect(locks.state(LOCK)).toEqual({ held: false, waiting: 0 });
    expect(FakeEventSource.opened[0]!.readyState).toBe(FakeEventSource.CLOSED);
    expect(openStreams()).toHaveLength(1);
    expect(openChannels().map((c) => c.name)).toEqual(['selfsound-unread:200']);

    tab.rerender(null);
    await settle();
    expect(locks.state('selfsound-unread:200')).toEqual({ held: false, waiting: 0 });
    expect(openStreams()).toHaveLength(0);
    expect(openChannels()).toHaveLength(0);
  });
});

describe('useUnreadCount without Web Locks', () => {
  it('each tab opens its own stream, as before', async () => {
    delete (navigator as { locks?: unknown }).locks;
    unreadCount(1);
    const first = openTab();
    const second = openTab();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(2));
    expect(FakeBroadcastChannel.opened).toHaveLength(0);
    FakeEventSource.opened[1]!.emit('unread', { unread: 2 });
    await waitFor(() => expect(second.result.current).toBe(2));
    await settle();
    expect(first.result.current).toBe(1);
  });
});
