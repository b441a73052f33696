import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import type { NotificationJson } from './api';

/** A notification as GET /notifications sends it: someone started listening, 3 days ago, unread. */
export function notificationRow(id: string, overrides: Partial<NotificationJson> = {}): NotificationJson {
  return {
    id,
    type: 'listening',
    sender_id: `u-${id}`,
    username: `user_${id}`,
    sender_name: `User ${id}`,
    avatar_url: '',
    message: 'started listening to you',
    timestamp: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    read: false,
    post_id: null,
    ...overrides,
  };
}

/** GET /notifications/unread-count answering `initial` (change `unread` later), counting calls. */
export function unreadCount(initial: number): { unread: number; asked: number } {
  const state = { unread: initial, asked: 0 };
  server.use(
    http.get(api('/notifications/unread-count'), () => {
      state.asked += 1;
      return HttpResponse.json({ unread: state.unread });
    }),
  );
  return state;
}
