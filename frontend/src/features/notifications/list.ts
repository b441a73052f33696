/**
 * The notifications list and marking read (spec §4 Notification, §7, §8): only the page uses
 * them, so they come with its chunk, not with the nav bar's badge (api.ts).
 */
import {
  infiniteQueryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError, request } from '../../lib/http';
import { patchPagedItems } from '../../lib/paged-items';
import { getToken } from '../../lib/token-storage';
import { notificationQueries, type NotificationJson, type UnreadJson } from './api';

/** Notifications come 20 at a time (spec §9). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export type NotificationPages = InfiniteData<NotificationJson[], number>;

/** Spec §8: the list is asked for only with a stored access token. */
export class TokenMissingError extends Error {
  override readonly name = 'TokenMissingError';
}

export async function fetchNotifications(offset: number, signal?: AbortSignal): Promise<NotificationJson[]> {
  if (!getToken()) throw new TokenMissingError('No access token');
  const params = new URLSearchParams({ limit: String(NOTIFICATIONS_PAGE_SIZE), offset: String(offset) });
  // A 401 here ends the stored session (spec §8 Notifications).
  const answer = await request<NotificationJson[] | null>(`/notifications?${params.toString()}`, {
    signal,
    sessionScoped: true,
  });
  return Array.isArray(answer) ? answer : [];
}

/** More while the last page came back full; the next page starts after everything loaded. */
export function nextNotificationOffset(last: NotificationJson[], pages: NotificationJson[][]): number | undefined {
  if (last.length < NOTIFICATIONS_PAGE_SIZE) return undefined;
  return pages.reduce((total, page) => total + page.length, 0);
}

/** The viewer's notifications, newest first, 20 a page by offset. */
export function notificationList(viewerId: string | null | undefined) {
  return infiniteQueryOptions({
    queryKey: [...notificationQueries.lists(), viewerId ?? null] as const,
    queryFn: ({ pageParam, signal }) => fetchNotifications(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextNotificationOffset,
    enabled: Boolean(viewerId),
    // Once more after a network failure or a 5xx; a 4xx or a missing token answers the same.
    retry: (failures, error) =>
      failures < 1 && !(error instanceof TokenMissingError) && !(error instanceof ApiError && error.status < 500),
  });
}

// ---------------------------------------------------------------------------------------------
// Changing cached notifications

/** Marks the cached rows `which` picks as read; true when one of them was unread. */
function markCachedRead(queryClient: QueryClient, which: (n: NotificationJson) => boolean): boolean {
  return patchPagedItems(
    queryClient,
    notificationQueries.lists(),
    (n: NotificationJson) => !n.read && which(n),
    (n) => ({ ...n, read: true }),
  );
}

function setCachedUnread(queryClient: QueryClient, next: (unread: number) => number): void {
  queryClient.setQueriesData<UnreadJson>({ queryKey: notificationQueries.unreadCounts() }, (data) =>
    data ? { unread: Math.max(0, next(data.unread)) } : data,
  );
}

// ---------------------------------------------------------------------------------------------
// Mutations

/**
 * Marks one notification read (PATCH /notifications/{id}/read): the row and the badge change at
 * once; afterwards both are asked again. A failure is only logged (spec §8).
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<void>(`/notifications/${encodeURIComponent(id)}/read`, { method: 'PATCH' }),
    onMutate: (id) => {
      if (markCachedRead(queryClient, (n) => n.id === id)) setCachedUnread(queryClient, (unread) => unread - 1);
    },
    onError: (error) => console.error('Failed to mark notification as read', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationQueries.all() }),
  });
}

/** Marks every notification read (POST /notifications/read-all); a failure is only logged. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('/notifications/read-all', { method: 'POST' }),
    onMutate: () => {
      markCachedRead(queryClient, () => true);
      setCachedUnread(queryClient, () => 0);
    },
    onError: (error) => console.error('Failed to mark all notifications as read', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationQueries.all() }),
  });
}
