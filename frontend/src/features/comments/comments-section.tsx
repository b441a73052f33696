import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { useViewer, type SignInState } from '../../lib/session';
import type { DisplayComment, MomentLink } from './types';
import {
  COMMENT_MESSAGES,
  commentQueries,
  commentsLoadErrorMessage,
  type CommentAddedHandler,
  type CommentRemovedHandler,
} from './api';
import { CommentComposer } from './comment-composer';
import { CommentList } from './comment-list';
import styles from './comments.module.css';

/** A guest is asked to sign in first, and comes back here afterwards. */
function SignInToComment() {
  const location = useLocation();
  const state: SignInState = { from: `${location.pathname}${location.search}${location.hash}` };
  return (
    <div className={styles.signIn}>
      <p className={styles.signInText}>Join the conversation.</p>
      <Link to="/sign-in" state={state} className="btn btn-primary">
        {COMMENT_MESSAGES.signIn}
      </Link>
    </div>
  );
}

interface CommentsSectionProps {
  postId: string;
  /** The post's comment count, shown beside the heading. */
  count?: number;
  /** The heading's id, for a control elsewhere that jumps here. */
  headingId?: string;
  /** What else a published comment changes in the cache (the post page counts it on the post). */
  onCommentAdded?: CommentAddedHandler;
  /** The post's author, who may delete any comment on it (its menu offers Delete). */
  postAuthorId?: string;
  /** What else a deleted comment changes in the cache (the post page counts it off the post). */
  onCommentRemoved?: CommentRemovedHandler;
  /** An audio post's player: comments may be on a moment of its tracks, and play from there. */
  moments?: MomentLink;
}

/**
 * The comments of a post (spec §2 Post page): the composer (or a 'Sign in to comment' prompt
 * for guests), then the comments newest first, 20 at a time with 'Load More Comments'. Each
 * comment's menu deletes it (its author, the post's author, an admin) or reports it. On an audio
 * post (`moments`), a comment may be on a moment of its track, and its time plays from there.
 */
export function CommentsSection({
  postId,
  count,
  headingId = 'comments-heading',
  onCommentAdded,
  postAuthorId,
  onCommentRemoved,
  moments,
}: CommentsSectionProps) {
  const viewer = useViewer();
  const viewerId = viewer === undefined ? undefined : (viewer?.id ?? null);
  const list = useInfiniteQuery(commentQueries.list(postId, viewerId));

  // A comment published here can come again on a later page; each shows once.
  const comments = useMemo(() => {
    const seen = new Set<string>();
    const all: DisplayComment[] = [];
    for (const page of list.data?.pages ?? []) {
      for (const comment of page.comments) {
        if (seen.has(comment.id)) continue;
        seen.add(comment.id);
        all.push(comment);
      }
    }
    return all;
  }, [list.data]);

  return (
    <section className={styles.section} aria-labelledby={headingId} id="comments">
      <h2 id={headingId} className={styles.heading}>
        {COMMENT_MESSAGES.heading}
        {typeof count === 'number' ? (
          <span className={styles.count} aria-label={`${count} ${count === 1 ? 'comment' : 'comments'}`}>
            {count}
          </span>
        ) : null}
      </h2>

      {viewer === undefined ? null : viewer ? <CommentComposer postId={postId} onAdded={onCommentAdded} moments={moments} /> : <SignInToComment />}

      {list.isPending ? (
        <div className={styles.center}>
          <Spinner label="Loading comments" />
        </div>
      ) : list.isError && comments.length === 0 ? (
        <Alert tone="error">
          <p>{commentsLoadErrorMessage(list.error)}</p>
          <button type="button" className={`btn btn-secondary ${styles.retry}`} onClick={() => void list.refetch()}>
            {COMMENT_MESSAGES.tryAgain}
          </button>
        </Alert>
      ) : comments.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>{COMMENT_MESSAGES.emptyTitle}</p>
          <p className={styles.emptyText}>{COMMENT_MESSAGES.emptyText}</p>
        </div>
      ) : (
        <>
          <CommentList
            comments={comments}
            postId={postId}
            postAuthorId={postAuthorId}
            onRemoved={onCommentRemoved}
            moments={moments}
          />
          {list.isFetchNextPageError ? (
            <Alert tone="error">{commentsLoadErrorMessage(list.error)}</Alert>
          ) : null}
          {list.hasNextPage ? (
            <button
              type="button"
              className={`btn btn-secondary ${styles.more}`}
              onClick={() => {
                if (!list.isFetchingNextPage) void list.fetchNextPage();
              }}
              aria-disabled={list.isFetchingNextPage || undefined}
            >
              {list.isFetchingNextPage ? <Spinner size="sm" label="" /> : null}
              {list.isFetchingNextPage ? COMMENT_MESSAGES.loadingMore : COMMENT_MESSAGES.loadMore}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
