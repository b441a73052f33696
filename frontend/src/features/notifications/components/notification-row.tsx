import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { RelativeTime } from '../../../components/relative-time';
import type { NotificationJson } from '../api';
import styles from './notification-row.module.css';

/** A sender the server sent no login for. */
const UNKNOWN_SENDER = 'Unknown User';

/** Mentions, comments and likes (`other`) are about a post: their action text opens it (spec §2). */
function postOf(notification: NotificationJson): string | null {
  const opensPost = notification.type !== 'listening';
  return opensPost && notification.post_id ? `/post/${encodeURIComponent(notification.post_id)}` : null;
}

interface NotificationRowProps {
  notification: NotificationJson;
  /** Called as the row is opened (before the router moves on): marks it read. */
  onOpen: (notification: NotificationJson) => void;
}

/**
 * One notification (spec §2, §4 Notification): a dot in the colour of its type (grey once read),
 * the sender's avatar and login opening their profile, the action text, and how long ago. A
 * click anywhere on the row opens the profile too; the action text of a mention, comment or like
 * opens the post instead. Read rows are dimmed.
 */
export function NotificationRow({ notification, onOpen }: NotificationRowProps) {
  const navigate = useNavigate();
  const post = postOf(notification);
  const profile = `/user/${encodeURIComponent(notification.sender_id)}`;
  const sender = notification.username || notification.sender_name || UNKNOWN_SENDER;
  const open = () => onOpen(notification);
  // A click anywhere else on the row does what the login's link does (keyboards use the link).
  const onRowClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('a') || window.getSelection()?.toString()) return;
    open();
    void navigate(profile);
  };
  return (
    <div className={styles.row} data-read={notification.read} data-type={notification.type} onClick={onRowClick}>
      <span className={styles.dot} aria-hidden="true" data-testid="notification-dot" />
      <Avatar src={notification.avatar_url} name="" size={44} className={styles.avatar} />
      <div className={styles.text}>
        <p className={styles.line}>
          {notification.read ? null : <span className="visually-hidden">Unread: </span>}
          <Link
            to={profile}
            className={styles.sender}
            title={notification.sender_name || undefined}
            onClick={open}
          >
            {sender}
          </Link>{' '}
          {post ? (
            <Link to={post} className={styles.postLink} onClick={open}>
              {notification.message}
            </Link>
          ) : (
            <span className={styles.message}>{notification.message}</span>
          )}
        </p>
        <RelativeTime time={notification.timestamp} days="words" className={styles.time} />
      </div>
    </div>
  );
}
