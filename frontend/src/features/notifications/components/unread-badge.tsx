import styles from './unread-badge.module.css';

/** The count as the badge writes it: up to 99, then '99+'. */
export function unreadText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** What a link with the badge is called: 'Notifications, 3 unread' (just the label at 0). */
export function unreadLabel(label: string, count: number | undefined): string {
  return count ? `${label}, ${unreadText(count)} unread` : label;
}

/**
 * The small count bubble on the Notifications icon; nothing at 0. It is only drawn (the count
 * is CSS content from `data-count`, not text): the link it sits on says the count in its name
 * (unreadLabel), and its visible words stay a part of that name, as speech input needs
 * (WCAG 2.5.3; axe's label-content-name-mismatch).
 */
export function UnreadBadge({ count }: { count: number | undefined }) {
  if (!count) return null;
  return <span className={styles.badge} aria-hidden="true" data-testid="unread-badge" data-count={unreadText(count)} />;
}
