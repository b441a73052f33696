import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/alert';
import { ExternalLinkIcon } from '../../../components/icons';
import { Modal } from '../../../components/modal';
import { RelativeTime } from '../../../components/relative-time';
import { Spinner } from '../../../components/spinner';
import { deleteActionFor, type AuditJson, type Complaint, type ComplaintGroup, type ResolveAction } from '../api';
import { CommentField, GroupComplaints } from './complaint-parts';
import { StatusBadge } from './status-badge';
import { SuspensionControl } from './suspension-control';
import styles from './complaint-details.module.css';

/** A post's kind as the complaint says it: sheet music is a score, not a "musicxml". */
const POST_KIND_WORDS: Record<string, string> = {
  audio: 'Audio post',
  lyrics: 'Lyrics post',
  media: 'Media post',
  musicxml: 'Score',
};

export const DETAILS_WORDS = {
  title: 'Complaint Details',
  deletePost: 'Delete Post',
  deleteComment: 'Delete Comment',
  deleting: 'Deleting...',
  ignore: 'Ignore',
  ignoring: 'Ignoring...',
  openPost: 'Open post',
  confirmDeletePost: 'Delete this post for everyone, with its comments, likes and files? This cannot be undone.',
  confirmDeleteComment: 'Delete this comment for everyone? This cannot be undone.',
  yesDeletePost: 'Yes, delete post',
  yesDeleteComment: 'Yes, delete comment',
  cancel: 'Cancel',
} as const;

const DONE: Record<AuditJson['action'], string> = {
  delete_post: 'Deleted',
  delete_comment: 'Comment deleted',
  ignore: 'Ignored',
  suspend: 'Author suspended',
};

/** "Deleted by @root · 2h ago"; the command line is named as it is, without an @. */
function AuditLine({ entry }: { entry: AuditJson }) {
  const who = entry.admin_id ? `@${entry.admin_login}` : entry.admin_login;
  return (
    <li>
      {DONE[entry.action] ?? entry.action} by {who} · <RelativeTime time={entry.created_at} />
    </li>
  );
}

interface ComplaintDetailsProps {
  /** The complaint shown; null keeps the dialog closed. For a group, its newest. */
  complaint: Complaint | null;
  /**
   * A pending row of the to-do list: every open complaint about one post or comment. With more
   * than one, the dialog lists them all; deciding decides about all of them.
   */
  group?: ComplaintGroup | null;
  onClose: () => void;
  onResolve: (action: ResolveAction) => void;
  /** The decision under way for this complaint, if any. */
  working: ResolveAction | null;
  /** Some decision is under way (this complaint's or another's): both buttons wait. */
  busy: boolean;
  /** Why the last decision failed (spec §8: the server's words or 'Failed to resolve report'). */
  failure: string | null;
  onDismissFailure: () => void;
}

/**
 * The 'Complaint Details' dialog (spec §2 Admin panel): reporter id and name ('Unknown' when
 * gone), post id, reason, the description when there is one, the status ('pending' when none
 * came), a link to the post in a new tab, and 'Delete Post' / 'Ignore' while it is pending.
 * Beyond the spec: whether the post still exists, its author, and who decided what, when; for
 * a comment's complaint the comment and its author, and 'Delete Comment'; for a group of
 * complaints about one item, each reporter with their reason (deciding decides for all).
 * Deleting asks first, in the dialog itself: the details above are what the admin decides on.
 */
export function ComplaintDetails({
  complaint,
  group = null,
  onClose,
  onResolve,
  working,
  busy,
  failure,
  onDismissFailure,
}: ComplaintDetailsProps) {
  // Which complaint's delete is being confirmed (another complaint opened starts unasked).
  const [confirming, setConfirming] = useState<string | null>(null);
  if (!complaint) return null;
  const pending = complaint.status === 'pending';
  const { reporter, postAuthor } = complaint;
  // One complaint shows the spec's fields; several about one item are listed instead.
  const single = !group || group.count === 1;
  const deleteAction = deleteActionFor(complaint.targetType);
  const deleteLabel = deleteAction === 'delete_comment' ? DETAILS_WORDS.deleteComment : DETAILS_WORDS.deletePost;
  // Whom a suspension from here would keep out: the author of what was reported.
  const reported = complaint.targetType === 'comment' ? (complaint.comment?.author ?? null) : postAuthor;

  return (
    <Modal open title={DETAILS_WORDS.title} onClose={onClose}>
      <dl className={styles.fields}>
        {single ? (
          <>
            <div>
              <dt>Reporter ID</dt>
              <dd className={styles.id}>{complaint.reporterId || '—'}</dd>
            </div>
            <div>
              <dt>Reporter Name</dt>
              <dd>
                {complaint.reporterName}
                {reporter ? (
                  <>
                    {' '}
                    <Link to={`/user/${encodeURIComponent(reporter.id)}`} className={styles.login}>
                      @{reporter.login}
                    </Link>
                  </>
                ) : null}
              </dd>
            </div>
          </>
        ) : null}
        <div>
          <dt>Post ID</dt>
          <dd className={styles.id}>{complaint.postId}</dd>
        </div>
        {single ? (
          <>
            <div>
              <dt>Reason</dt>
              <dd>{complaint.reason}</dd>
            </div>
            {complaint.description ? (
              <div className={styles.wide}>
                <dt>Description</dt>
                <dd className={styles.description}>{complaint.description}</dd>
              </div>
            ) : null}
          </>
        ) : null}
        {complaint.comment ? <CommentField comment={complaint.comment} /> : null}
        {group && !single ? <GroupComplaints group={group} /> : null}
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={complaint.status} />
          </dd>
        </div>
        <div>
          <dt>Reported</dt>
          <dd>
            <RelativeTime time={complaint.createdAt} />
          </dd>
        </div>
        <div className={styles.wide}>
          <dt>Post Link</dt>
          <dd className={styles.post}>
            <a href={complaint.postLink} target="_blank" rel="noopener noreferrer" className={styles.postLink}>
              {DETAILS_WORDS.openPost}
              <ExternalLinkIcon size={16} />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <span className={complaint.postExists ? styles.exists : styles.gone}>
              {complaint.postExists ? 'Still on SelfSound' : 'Post deleted'}
            </span>
            <span className={styles.postMeta}>
              {[POST_KIND_WORDS[complaint.postType] ?? complaint.postType, postAuthor ? `by @${postAuthor.login}` : null]
                .filter(Boolean)
                .join(' ')}
            </span>
          </dd>
        </div>
        {reported ? (
          <div className={styles.wide}>
            <dt>Author&apos;s account</dt>
            <dd>
              <SuspensionControl person={reported} reportId={complaint.id} />
            </dd>
          </div>
        ) : null}
        {complaint.audit.length > 0 ? (
          <div className={styles.wide}>
            <dt>History</dt>
            <dd>
              <ul className={styles.audit}>
                {complaint.audit.map((entry) => (
                  <AuditLine key={`${entry.action}-${entry.created_at}`} entry={entry} />
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>

      {failure ? (
        <Alert tone="error" onDismiss={onDismissFailure} className={styles.failure}>
          {failure}
        </Alert>
      ) : null}

      {pending && confirming === complaint.id ? (
        <div className={styles.confirm} role="group" aria-labelledby="confirm-delete">
          <p id="confirm-delete" className={styles.confirmText}>
            {deleteAction === 'delete_comment' ? DETAILS_WORDS.confirmDeleteComment : DETAILS_WORDS.confirmDeletePost}
          </p>
          <div className={styles.actions}>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(null)} disabled={busy}>
              {DETAILS_WORDS.cancel}
            </button>
            {/* The answer to the question just asked: focus moves to it. */}
            <button type="button" className="btn btn-danger" onClick={() => onResolve(deleteAction)} disabled={busy} autoFocus>
              {working === deleteAction ? <Spinner size="sm" label="" /> : null}
              {working === deleteAction
                ? DETAILS_WORDS.deleting
                : deleteAction === 'delete_comment'
                  ? DETAILS_WORDS.yesDeleteComment
                  : DETAILS_WORDS.yesDeletePost}
            </button>
          </div>
        </div>
      ) : pending ? (
        <div className={styles.actions}>
          <button type="button" className="btn btn-secondary" onClick={() => onResolve('ignore')} disabled={busy}>
            {working === 'ignore' ? <Spinner size="sm" label="" /> : null}
            {working === 'ignore' ? DETAILS_WORDS.ignoring : DETAILS_WORDS.ignore}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => setConfirming(complaint.id)} disabled={busy}>
            {deleteLabel}
          </button>
        </div>
      ) : null}
    </Modal>
  );
}
