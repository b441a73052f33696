/**
 * Notifications (spec §2, §3, §7, §8): the wire types, the query keys, and the unread count the
 * nav bar keeps live with its badge. This is the feature's public surface, and the nav bar makes
 * it part of the first load (docs/frontend.md, "First load"), so it holds only what the badge
 * needs: the list, marking read and the page (list.ts, notifications-page.tsx) are a lazy chunk.
 *
 * Every key carries the viewer's id: a list or a count belongs to whoever asked.
 */
import { useEffect, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_URL } from '../../lib/config';
import { apiUrl, request } from '../../lib/http';
import { sessionQueries } from '../../lib/session';

export type NotificationType = 'mention' | 'comment' | 'listening' | 'other';

/** One row of GET /notifications, newest first. */
export interface NotificationJson {
  id: string;
  type: NotificationType;
  sender_id: string;
  /** The sender's login. */
  username: string;
  sender_name: string;
  avatar_url: string | null;
  /** The action text: 'commented on your post: “nice riff”', 'started listening to you'. */
  message: string;
  /** RFC 3339. */
  timestamp: string;
  read: boolean;
  /** The post a mention, comment or like is about. */
  post_id: string | null;
}

/** GET /notifications/unread-count, and the data of the stream's `unread` events. */
export interface UnreadJson {
  unread: number;
}

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
    // Cookies carry the session; across origins they go only when asked for.
    const source = new EventSource(apiUrl(NOTIFICATION_STREAM_PATH), { withCredentials: API_URL !== '' });
    source.addEventListener('unread', (event) => {
      let unread: number | null = null;
      try {
        unread = unreadOf(JSON.parse(String(event.data)));
      } catch {
        // Not JSON: ignored, the next event will do.
      }
      if (unread === null) return;
      // A count asked for before this event must not overwrite it when it answers.
      void queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<UnreadJson>(key, { unread });
      void queryClient.invalidateQueries({ queryKey: notificationQueries.lists() });
    });
    source.addEventListener('signed-out', () => {
      source.close();
      setClosedFor(viewerId);
      void queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) setClosedFor(viewerId);
    });
    return () => source.close();
  }, [viewerId, queryClient]);

  return viewerId ? count.data?.unread : undefined;
}

export { UnreadBadge, unreadLabel } from './components/unread-badge';
