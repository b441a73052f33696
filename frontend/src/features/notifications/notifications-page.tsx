import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { EmptyState } from '../../components/empty-state';
import { BellIcon } from '../../components/first-load-icons';
import { LoadMoreButton } from '../../components/load-more-button';
import { Spinner } from '../../components/spinner';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import { useGoToSignIn, useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { notificationQueries, type NotificationJson } from './api';
import { TokenMissingError, notificationList, useMarkAllRead, useMarkRead } from './list';
import { NotificationRow } from './components/notification-row';
import styles from './notifications-page.module.css';

export const NOTIFICATION_WORDS = {
  title: 'Notifications',
  loading: 'Loading notifications...',
  empty: 'No notifications yet',
  emptyText: 'Mentions, comments, likes and new listeners will show up here.',
  tokenMissing: 'Authentication required. Please sign in to view notifications.',
  fetchFailed: (statusText: string) => `Failed to fetch notifications: ${statusText}`,
  failed: 'Failed to load notifications',
  tryAgain: 'Try Again',
  signIn: 'Sign in',
  markAllRead: 'Mark all as read',
} as const;

/** What a list that could not load says (spec §8 Notifications). */
export function notificationsError(error: unknown): string {
  if (error instanceof TokenMissingError) return NOTIFICATION_WORDS.tokenMissing;
  if (error instanceof ApiError) {
    if (error.status === 401) return SESSION_EXPIRED_MESSAGE;
    return NOTIFICATION_WORDS.fetchFailed(error.statusText || `HTTP ${error.status}`);
  }
  return NOTIFICATION_WORDS.failed;
}

/**
 * The viewer's notifications (spec §2, §4, §8): newest first, 20 at a time with 'Load More'.
 * Opening a row marks it read, then goes to the sender's profile (or, from the action text of a
 * mention, comment or like, to the post). New ones appear as the nav bar's stream announces them.
 */
export function NotificationsPage() {
  usePageTitle(NOTIFICATION_WORDS.title);
  const viewer = useViewer();
  const viewerId = viewer?.id;
  const goToSignIn = useGoToSignIn();
  const query = useInfiniteQuery(notificationList(viewerId));
  // The nav bar keeps this count live; here it only decides whether 'Mark all as read' shows.
  const unread = useQuery({
    ...notificationQueries.unreadCount(viewerId),
    refetchOnMount: false,
    refetchOnWindowFocus: false,
  });
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();

  const rows = dedupe(query.data?.pages.flat() ?? []);
  const hasUnread = (unread.data?.unread ?? 0) > 0 || rows.some((n) => !n.read);
  const loadingMore = query.isFetchingNextPage;

  function onOpen(notification: NotificationJson) {
    if (!notification.read) markRead.mutate(notification.id);
  }

  let content;
  if (viewer === null) {
    // The session ended under the page (the route guard is sending the visitor to sign in).
    content = (
      <Alert tone="error">
        <p>{NOTIFICATION_WORDS.tokenMissing}</p>
        <div className={styles.errorActions}>
          <button type="button" className="btn btn-primary" onClick={() => goToSignIn()}>
            {NOTIFICATION_WORDS.signIn}
          </button>
        </div>
      </Alert>
    );
  } else if (query.isPending) {
    content = (
      <p className={styles.status} role="status">
        <Spinner size="sm" label="" />
        {NOTIFICATION_WORDS.loading}
      </p>
    );
  } else if (!query.data) {
    content = (
      <Alert tone="error">
        <p>{notificationsError(query.error)}</p>
        <div className={styles.errorActions}>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              if (!query.isFetching) void query.refetch();
            }}
            aria-disabled={query.isFetching || undefined}
          >
            {query.isFetching ? <Spinner size="sm" label="" /> : null}
            {NOTIFICATION_WORDS.tryAgain}
          </button>
          {query.error instanceof TokenMissingError ? (
            <button type="button" className="btn btn-primary" onClick={() => goToSignIn()}>
              {NOTIFICATION_WORDS.signIn}
            </button>
          ) : null}
        </div>
      </Alert>
    );
  } else if (rows.length === 0) {
    content = (
      <EmptyState icon={<BellIcon size={26} />} title={NOTIFICATION_WORDS.empty} text={NOTIFICATION_WORDS.emptyText} />
    );
  } else {
    content = (
      <>
        <ul className={`card ${styles.list}`} aria-label={NOTIFICATION_WORDS.title} aria-busy={loadingMore || undefined}>
          {rows.map((notification) => (
            <li key={notification.id}>
              <NotificationRow notification={notification} onOpen={onOpen} />
            </li>
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <Alert tone="error">
            <p>{notificationsError(query.error)}</p>
            <button
              type="button"
              className={`btn btn-secondary ${styles.retry}`}
              onClick={() => void query.fetchNextPage()}
            >
              {NOTIFICATION_WORDS.tryAgain}
            </button>
          </Alert>
        ) : query.hasNextPage ? (
          <div className={styles.more}>
            <LoadMoreButton loading={loadingMore} onLoad={() => void query.fetchNextPage()} />
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1>{NOTIFICATION_WORDS.title}</h1>
        {hasUnread && query.data ? (
          <button
            type="button"
            className={`btn btn-ghost ${styles.markAll}`}
            onClick={() => markAllRead.mutate()}
            disabled={markAllRead.isPending}
          >
            {NOTIFICATION_WORDS.markAllRead}
          </button>
        ) : null}
      </header>
      {content}
    </div>
  );
}

/** Offsets shift when a notification arrives between two pages: a row is shown once. */
function dedupe(rows: NotificationJson[]): NotificationJson[] {
  const seen = new Set<string>();
  return rows.filter((n) => {
    if (seen.has(n.id)) return false;
    seen.add(n.id);
    return true;
  });
}
