import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/avatar';
import { RoleBadge } from '../../components/role-badge';
import type { CommentRemovedHandler } from './api';
import { CommentMenu } from './comment-menu';
import type { DisplayComment } from './types';
import { CommentText, profilePath } from './comment-text';
import styles from './comments.module.css';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago a comment was written, in the comments' short words (spec §4 Relative
 * timestamps): 'just now' under a minute, then '5m', '3h', '2d' under 7 days, else the date in
 * the reader's locale. A time slightly ahead (clocks differ) is 'just now'; an unreadable one ''.
 */
export function formatCommentTime(when: string | Date, now: Date = new Date()): string {
  const date = typeof when === 'string' ? new Date(when) : when;
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const ago = now.getTime() - time;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)}m`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)}h`;
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)}d`;
  return date.toLocaleDateString();
}

/** The comment's time, kept current every minute; the full date and time on hover. */
function CommentTime({ time }: { time: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), MINUTE);
    return () => window.clearInterval(timer);
  }, []);
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time className={styles.time} dateTime={date.toISOString()} title={date.toLocaleString()}>
      {formatCommentTime(date, now)}
    </time>
  );
}

/**
 * One comment: who wrote it (avatar, name, @login to their profile, role badge), when, what,
 * and its menu (`menu`) at the end of its head.
 */
export function CommentItem({ comment, menu }: { comment: DisplayComment; menu?: ReactNode }) {
  const name = comment.authorName || comment.authorLogin || 'Unknown User';
  const profile = comment.authorId ? profilePath(comment.authorId) : null;
  return (
    <article className={styles.comment} aria-label={`Comment by ${name}`}>
      {profile ? (
        <Link to={profile} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
          <Avatar src={comment.authorAvatarUrl} name="" size={36} />
        </Link>
      ) : (
        <Avatar src={comment.authorAvatarUrl} name="" size={36} className={styles.avatarLink} />
      )}
      <div className={styles.bubble}>
        <header className={styles.commentHead}>
          <span className={styles.headMain}>
            <span className={styles.who}>
              <span className={styles.authorName}>{name}</span>
              {comment.authorLogin ? (
                profile ? (
                  <Link to={profile} className={styles.authorLogin}>
                    @{comment.authorLogin}
                  </Link>
                ) : (
                  <span className={styles.authorLogin}>@{comment.authorLogin}</span>
                )
              ) : null}
            </span>
            <RoleBadge tagId={comment.authorRole} fallback="listener" className={styles.badge} />
            <CommentTime time={comment.createdAt} />
          </span>
          {menu ? <span className={styles.menu}>{menu}</span> : null}
        </header>
        <CommentText content={comment.content} mentions={comment.mentions} />
      </div>
    </article>
  );
}

interface CommentListProps {
  comments: readonly DisplayComment[];
  postId: string;
  /** The post's author, who may delete any comment on it. */
  postAuthorId?: string;
  onRemoved?: CommentRemovedHandler;
}

/** Comments, newest first, each with its menu (delete, report). */
export function CommentList({ comments, postId, postAuthorId, onRemoved }: CommentListProps) {
  return (
    <ol className={styles.list}>
      {comments.map((comment) => (
        <li key={comment.id}>
          <CommentItem
            comment={comment}
            menu={<CommentMenu postId={postId} comment={comment} postAuthorId={postAuthorId} onRemoved={onRemoved} />}
          />
        </li>
      ))}
    </ol>
  );
}
