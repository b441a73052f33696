import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/avatar';
import { RoleBadge } from '../../components/role-badge';
import type { CommentRemovedHandler } from './api';
import { COMMENT_EDIT_WORDS, CommentEditor } from './comment-editor';
import { CommentMenu } from './comment-menu';
import { BAR_WORDS, MOMENT_WORDS, momentText } from './moment-words';
import type { DisplayComment, MomentLink } from './types';
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

/** 'edited', with when on hover and for screen readers. */
function EditedMark({ time }: { time: string }) {
  const date = new Date(time);
  const when = Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
  return (
    <span className={styles.edited} title={when ? COMMENT_EDIT_WORDS.editedAt(when) : undefined}>
      {COMMENT_EDIT_WORDS.edited}
    </span>
  );
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

/** The moment of the track a comment is on: a button that plays from there, when it can. */
function CommentMomentMark({ comment, link }: { comment: DisplayComment; link?: MomentLink }) {
  const moment = comment.moment;
  if (!moment) return null;
  const words = momentText(moment, link?.trackTitle(moment.track) ?? null);
  if (!link) return <span className={styles.momentMark}>{words}</span>;
  return (
    <button
      type="button"
      className={styles.momentMark}
      aria-label={(moment.bars ? BAR_WORDS : MOMENT_WORDS).playFrom(words)}
      onClick={() => link.play(moment)}
    >
      {words}
    </button>
  );
}

/**
 * One comment: who wrote it (avatar, name, @login to their profile, role badge), when (and
 * 'edited'), the moment of the track it is on, what, and its menu (`menu`) at the end of its
 * head. `editor` takes the text's place while its author edits it.
 */
export function CommentItem({
  comment,
  menu,
  editor,
  moments,
}: {
  comment: DisplayComment;
  menu?: ReactNode;
  editor?: ReactNode;
  moments?: MomentLink;
}) {
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
            {comment.editedAt ? <EditedMark time={comment.editedAt} /> : null}
            <CommentMomentMark comment={comment} link={moments} />
          </span>
          {menu ? <span className={styles.menu}>{menu}</span> : null}
        </header>
        {editor ?? <CommentText content={comment.content} mentions={comment.mentions} />}
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
  /** An audio post's player: a comment's moment plays from there. */
  moments?: MomentLink;
}

/**
 * Comments, newest first, each with its menu (edit, delete, report). One at a time is edited in
 * place; when that ends, the focus goes back to its menu.
 */
export function CommentList({ comments, postId, postAuthorId, onRemoved, moments }: CommentListProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  function doneEditing(commentId: string) {
    setEditing(null);
    window.requestAnimationFrame(() => {
      const item = listRef.current?.querySelector<HTMLElement>(`[data-comment-id="${CSS.escape(commentId)}"]`);
      item?.querySelector<HTMLElement>('button[aria-haspopup]')?.focus();
    });
  }

  return (
    <ol className={styles.list} ref={listRef}>
      {comments.map((comment) => (
        <li key={comment.id} data-comment-id={comment.id}>
          <CommentItem
            comment={comment}
            moments={moments}
            menu={
              <CommentMenu
                postId={postId}
                comment={comment}
                postAuthorId={postAuthorId}
                onRemoved={onRemoved}
                onEdit={() => setEditing(comment.id)}
              />
            }
            editor={
              editing === comment.id ? (
                <CommentEditor
                  postId={postId}
                  comment={comment}
                  onRemoved={onRemoved}
                  onDone={() => doneEditing(comment.id)}
                />
              ) : undefined
            }
          />
        </li>
      ))}
    </ol>
  );
}
