/**
 * Notifications (spec §2, §3, §7, §8): the wire types, the query keys, and the unread count the
 * nav bar keeps live with its badge. The nav bar makes it part of the first load (docs/frontend.md,
 * "First load"), so it holds only what the badge needs: the list, marking read and the page
 * (list.ts, notifications-page.tsx) are a lazy chunk.
 *
 * Every key carries the viewer's id: a list or a count belongs to whoever asked.
 */
import { useEffect, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { API_URL } from '../../lib/config';
import { apiUrl, request } from '../../lib/http';
import { sessionQueries } from '../../lib/session';

/**
 * One row of GET /notifications, newest first; `type` is mention, comment, listening or other (a
 * like). Generated from the server's OpenAPI document, as the unread count is.
 */
export type NotificationJson = components['schemas']['NotificationJson'];
/** GET /notifications/unread-count, and the data of the stream's `unread` events. */
export type UnreadJson = components['schemas']['UnreadJson'];

// ---------------------------------------------------------------------------------------------
// Calls

export async function fetchUnreadCount(signal?: AbortSignal): Promise<UnreadJson> {
  const answer = await request<Partial<UnreadJson> | undefined>('/notifications/unread-count', { signal });
  return { unread: unreadOf(answer) ?? 0 };
}

/** The count of an answer or a stream event, or null when it holds none. */
export function unreadOf(value: unknown): number | null {
  const unread = typeof value === 'object' && value !== null ? (value as Partial<UnreadJson>).unread : undefined;
  return typeof unread === 'number' && Number.isFinite(unread) ? Math.max(0, unread) : null;
}

// ---------------------------------------------------------------------------------------------
// Query factories

export const notificationQueries = {
  all: () => ['notifications'] as const,
  /** The viewer's list (list.ts): the stream marks it stale. */
  lists: () => [...notificationQueries.all(), 'list'] as const,
  unreadCounts: () => [...notificationQueries.all(), 'unread'] as const,
  /** How many are unread (the server counts at most 100); the stream keeps it current. */
  unreadCount: (viewerId: string | null | undefined) =>
    queryOptions({
      queryKey: [...notificationQueries.unreadCounts(), viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchUnreadCount(signal),
      enabled: Boolean(viewerId),
    }),
};

// ---------------------------------------------------------------------------------------------
// The live count

/** Where the server pushes the count: `event: unread` with `{"unread": n}`, `event: signed-out`. */
export const NOTIFICATION_STREAM_PATH = '/notifications/stream';

/**
 * The viewer's unread count, kept live (for the nav bar's badge; call it once). While someone is
 * signed in, an EventSource listens to the server: every `unread` event sets the count at once
 * and marks the list stale (an open notifications page shows the new row); the server sends the
 * current count first on every connection, and EventSource reconnects by itself after a network
 * error. `signed-out` means the session ended: the stream closes and the session check is asked
 * again. When the stream is gone for good (or the browser has none), the count is asked again
 * whenever the window regains focus instead.
 *
 * One stream serves every tab of the viewer (over HTTP/1.1 a browser opens only 6 connections
 * to a host): the tab holding the Web Lock `selfsound-unread:<viewer>` listens and passes each
 * event on over the BroadcastChannel of that name, and the others apply what it passes. When it
 * closes, signs out or its stream fails for good, the lock goes to another tab, whose new stream
 * starts with the current count (events set the count, never add to it). Without Web Locks or
 * BroadcastChannel, each tab has its own stream.
 */
export function useUnreadCount(viewerId: string | null | undefined): number | undefined {
  const queryClient = useQueryClient();
  // The viewer whose stream closed for good: the count then follows window focus instead.
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const live = typeof EventSource !== 'undefined' && closedFor !== viewerId;
  const count = useQuery({ ...notificationQueries.unreadCount(viewerId), refetchOnWindowFocus: !live });

  useEffect(() => {
    if (!viewerId || typeof EventSource === 'undefined') return;
    const key = notificationQueries.unreadCount(viewerId).queryKey;
    const name = `selfsound-unread:${viewerId}`;
    const channel = 'locks' in navigator && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(name) : null;
    const lock = new AbortController();
    let source: EventSource | undefined;
    let release = () => {};
    /** This tab listens no more: its stream closes, and the lock is released or not asked for. */
    const stop = () => {
      source?.close();
      release();
      lock.abort();
    };
    /** What the stream says, heard here or passed on by the tab that listens. */
    const onEvent = (type: string, data: unknown) => {
      if (type === 'signed-out') {
        stop();
        setClosedFor(viewerId);
        void queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
        return;
      }
      let unread: number | null = null;
      try {
        unread = unreadOf(JSON.parse(String(data)));
      } catch {
        // Not JSON: ignored, the next event will do.
      }
      if (unread === null) return;
      // A count asked for before this event must not overwrite it when it answers.
      void queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<UnreadJson>(key, { unread });
      void queryClient.invalidateQueries({ queryKey: notificationQueries.lists() });
    };
    const listen = () => {
      // Cookies carry the session; across origins they go only when asked for.
      const stream = (source = new EventSource(apiUrl(NOTIFICATION_STREAM_PATH), { withCredentials: API_URL !== '' }));
      for (const type of ['unread', 'signed-out']) {
        stream.addEventListener(type, (event) => {
          const data = (event as MessageEvent<unknown>).data;
          channel?.postMessage([type, data]);
          onEvent(type, data);
        });
      }
      stream.addEventListener('error', () => {
        if (stream.readyState !== EventSource.CLOSED) return;
        // Another tab may try its own stream; this one follows window focus (and the others).
        stop();
        setClosedFor(viewerId);
      });
    };
    if (channel) {
      channel.onmessage = (event: MessageEvent<[string, unknown]>) => onEvent(...event.data);
      navigator.locks
        .request(name, { signal: lock.signal }, () => {
          if (lock.signal.aborted) return;
          listen();
          return new Promise<void>((resolve) => (release = resolve));
        })
        // Aborted while waiting: this tab unmounted, changed viewer or heard `signed-out`.
        .catch(() => {});
    } else {
      listen();
    }
    return () => {
      stop();
      channel?.close();
    };
  }, [viewerId, queryClient]);

  return viewerId ? count.data?.unread : undefined;
}
