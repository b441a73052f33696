import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import type { ComplaintGroup, ReportedComment } from '../api';
import styles from './complaint-parts.module.css';

export const PARTS_WORDS = {
  comment: 'Reported Comment',
  commentGone: 'Comment deleted',
  by: 'by',
  complaints: 'Complaints',
  reportedBy: 'Reported By',
  count: (n: number) => (n === 1 ? '1 complaint' : `${n} complaints`),
  shown: (shown: number, all: number) => `The newest ${shown} of ${all}.`,
} as const;

/** '2 Harassment, Other': each reason with its count when more than one gave it. */
export function reasonsText(reasons: ComplaintGroup['reasons']): string {
  return reasons.map((r) => (r.count > 1 ? `${r.count} ${r.reason}` : r.reason)).join(', ');
}

/** The reported comment's text (or that it is gone) and its author. */
export function CommentField({ comment }: { comment: ReportedComment }) {
  const { author } = comment;
  return (
    <div className={styles.wide}>
      <dt>{PARTS_WORDS.comment}</dt>
      <dd>
        {comment.content !== null ? (
          <blockquote className={styles.quote}>{comment.content}</blockquote>
        ) : (
          <span className={styles.gone}>{PARTS_WORDS.commentGone}</span>
        )}
        {author ? (
          <span className={styles.author}>
            {PARTS_WORDS.by} {author.name}{' '}
            <Link to={`/user/${encodeURIComponent(author.id)}`} className={styles.login}>
              @{author.login}
            </Link>
          </span>
        ) : null}
      </dd>
    </div>
  );
}

/**
 * The complaints of a group (several people about one post or comment): how many and why, then
 * each reporter with their reason and words, newest first.
 */
export function GroupComplaints({ group }: { group: ComplaintGroup }) {
  return (
    <>
      <div className={styles.wide}>
        <dt>{PARTS_WORDS.complaints}</dt>
        <dd>
          <strong>{PARTS_WORDS.count(group.count)}</strong> · {reasonsText(group.reasons)}
        </dd>
      </div>
      <div className={styles.wide}>
        <dt>{PARTS_WORDS.reportedBy}</dt>
        <dd>
          <ol className={styles.reporters} aria-label={PARTS_WORDS.reportedBy}>
            {group.complaints.map((c) => (
              <li key={c.id} className={styles.reporter}>
                <span className={styles.reporterHead}>
                  <span className={styles.name}>{c.reporterName}</span>
                  {c.reporter ? (
                    <Link to={`/user/${encodeURIComponent(c.reporter.id)}`} className={styles.login}>
                      @{c.reporter.login}
                    </Link>
                  ) : null}
                  <span className={styles.reason}>{c.reason}</span>
                  <RelativeTime time={c.createdAt} />
                </span>
                {c.description ? <span className={styles.description}>{c.description}</span> : null}
              </li>
            ))}
          </ol>
          {group.complaints.length < group.count ? (
            <p className={styles.more}>{PARTS_WORDS.shown(group.complaints.length, group.count)}</p>
          ) : null}
        </dd>
      </div>
    </>
  );
}
