import type { NotificationJson } from './api';

/** A notification as GET /notifications sends it: someone started listening, 3 days ago, unread. */
export function notificationRow(id: string, overrides: Partial<NotificationJson> = {}): NotificationJson {
  return {
    id,
    type: 'listening',
    sender_id: `u-${id}`,
    username: `user_${id}`,
    sender_name: `User ${id}`,
    avatar_url: null,
    message: 'started listening to you',
    timestamp: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    read: false,
    post_id: null,
    ...overrides,
  };
}
