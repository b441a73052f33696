/**
 * The notifications feature's public surface (docs/frontend.md, "Boundaries"): the nav bar's
 * live unread count and its badge. It is part of the first load; the page is a lazy route.
 */
export { useUnreadCount } from './api';
export { UnreadBadge, unreadLabel } from './components/unread-badge';
