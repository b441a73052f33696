import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { RelativeTime } from '../../../components/relative-time';
import { RoleBadge } from '../../../components/role-badge';
import { useViewer } from '../../../lib/session';
import type { DisplayPost } from '../types';
import { PostMenu } from './post-menu';
import styles from './post-header.module.css';


/** An author the server sent neither a name nor a login for (spec §2 says so of profiles). */
const UNKNOWN_AUTHOR = 'Unknown User';

/** Where an author's name leads: one's own profile page, or theirs. */
export function authorPath(userId: string, viewerId: string | null | undefined): string {
  return viewerId && viewerId === userId ? '/profile' : `/user/${encodeURIComponent(userId)}`;
}

interface PostHeaderProps {
  post: DisplayPost;
  /** After the author deleted the post from its menu. */
  onDeleted?: () => void;
}

/** 'edited' after the time, with when on hover (issue 19). */
function EditedMark({ time }: { time: string }) {
  const date = new Date(time);
  const when = Number.isNaN(date.getTime()) ? undefined : `Edited ${date.toLocaleString()}`;
  return (
    <span className={styles.edited} title={when}>
      edited
    </span>
  );
}

/**
 * The top of a post (spec §2 Post card, Post page): avatar, name and @username opening the
 * author's profile, their role badge (Listener when unknown, spec §3), how long ago (and
 * 'edited'), and the three-dot menu.
 */
export function PostHeader({ post, onDeleted }: PostHeaderProps) {
  const viewer = useViewer();
  const name = post.displayName || post.username || UNKNOWN_AUTHOR;
  return (
    <header className={styles.header}>
      <Link to={authorPath(post.userId, viewer?.id)} className={styles.author}>
        <Avatar src={post.avatarUrl} name="" size={44} className={styles.avatar} />
        <span className={styles.names}>
          <span className={styles.name} title={name}>
            {name}
          </span>{' '}
          {post.username ? (
            <span className={styles.login} title={`@${post.username}`}>
              @{post.username}
            </span>
          ) : null}
        </span>
      </Link>
      <span className={styles.meta}>
        <RoleBadge tagId={post.role} fallback="listener" className={styles.badge} />
        {post.editedAt ? (
          <span className={styles.when}>
            <RelativeTime time={post.createdAt} className={styles.time} />
            <EditedMark time={post.editedAt} />
          </span>
        ) : (
          <RelativeTime time={post.createdAt} className={styles.time} />
        )}
      </span>
      <span className={styles.menu}>
        <PostMenu post={post} onDeleted={onDeleted} />
      </span>
    </header>
  );
}
