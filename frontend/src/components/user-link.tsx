import { Link } from 'react-router';
import { Avatar } from './avatar';
import styles from './user-link.module.css';

interface UserLinkProps {
  userId: string;
  /** The name shown: the display name, or the login when there is none. */
  name: string;
  login: string;
  avatarUrl: string | null | undefined;
  /** Smaller avatar and spacing, for a list inside a card (settings' blocked users). */
  compact?: boolean;
  /** The name wraps onto a second line rather than being cut (a row with a button beside). */
  wrapName?: boolean;
}

/**
 * A person in a list (search results, blocked users): avatar, name and @login, opening their
 * profile. It takes the row's free width; the row puts its own button beside it.
 */
export function UserLink({ userId, name, login, avatarUrl, compact = false, wrapName = false }: UserLinkProps) {
  return (
    <Link
      to={`/user/${encodeURIComponent(userId)}`}
      className={[styles.link, compact ? styles.compact : '', wrapName ? styles.wrapName : ''].filter(Boolean).join(' ')}
    >
      <Avatar src={avatarUrl} name="" size={compact ? 44 : 48} />
      <span className={styles.text}>
        <span className={styles.name}>{name}</span>
        <span className={styles.login}>@{login}</span>
      </span>
    </Link>
  );
}
