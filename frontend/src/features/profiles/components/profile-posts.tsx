import type { ReactNode } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { EmptyState } from '../../../components/empty-state';
import { LyricsIcon } from '../../../components/first-load-icons';
import { LoadMoreButton } from '../../../components/load-more-button';
import { Spinner } from '../../../components/spinner';
import { POST_MESSAGES, postQueries, postsErrorMessage, useViewerId, type DisplayPost } from '../../posts';
import styles from './profile-posts.module.css';

export const PROFILE_POSTS_MESSAGES = {
  emptyTitle: POST_MESSAGES.emptyTitle,
  ownEmptyText: 'Be the first to share something!',
  otherEmptyText: 'Posts will appear below',
  loadFailed: POST_MESSAGES.postsFailed,
} as const;

/** Where a profile's post list stands; an infinite query maps onto it one to one. */
export interface ProfilePostsState<T> {
  status: 'pending' | 'error' | 'success';
  posts: readonly T[];
  /** The error text shown with 'Try Again'. */
  error?: string;
  /** Why the last 'Load More' failed; 'Load More' stays to try again. */
  moreError?: string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

/**
 * The posts of a profile (GET /posts/user/{id}), ten at a time: more only while the last page
 * came back with exactly 10 (spec §4), asked for with the keyset cursor of its last post.
 */
export function useProfilePosts(userId: string | undefined): ProfilePostsState<DisplayPost> {
  const query = useInfiniteQuery(postQueries.byUser(userId ?? '', useViewerId()));
  const { data } = query;
  const loadingMore = query.isFetchingNextPage;
  return {
    status: query.isPending ? 'pending' : data ? 'success' : 'error',
    posts: data ? data.pages.flatMap((page) => page.posts) : [],
    error: query.isError ? postsErrorMessage(query.error, PROFILE_POSTS_MESSAGES.loadFailed) : undefined,
    moreError: query.isFetchNextPageError
      ? postsErrorMessage(query.error, PROFILE_POSTS_MESSAGES.loadFailed)
      : undefined,
    hasMore: query.hasNextPage,
    loadingMore,
    loadMore: () => {
      if (!loadingMore) void query.fetchNextPage();
    },
    retry: () => void query.refetch(),
  };
}

interface ProfilePostsProps<T extends { id: string }> {
  state: ProfilePostsState<T>;
  emptyText: string;
  renderPost: (post: T) => ReactNode;
}

export function ProfilePosts<T extends { id: string }>({ state, emptyText, renderPost }: ProfilePostsProps<T>) {
  return (
    <section className={styles.section} aria-labelledby="profile-posts-title">
      <h2 id="profile-posts-title" className={styles.title}>
        Posts
      </h2>
      {state.status === 'pending' ? (
        <div className={styles.center}>
          <Spinner label="Loading posts" size="lg" />
        </div>
      ) : state.status === 'error' ? (
        <Alert tone="error">
          <p>{state.error ?? PROFILE_POSTS_MESSAGES.loadFailed}</p>
          <button type="button" className={`btn btn-secondary ${styles.retry}`} onClick={state.retry}>
            Try Again
          </button>
        </Alert>
      ) : state.posts.length === 0 ? (
        <EmptyState icon={<LyricsIcon size={26} />} title={PROFILE_POSTS_MESSAGES.emptyTitle} text={emptyText} />
      ) : (
        <>
          <ul className={styles.list}>
            {state.posts.map((post) => (
              <li key={post.id}>{renderPost(post)}</li>
            ))}
          </ul>
          {state.moreError ? (
            <Alert tone="error" className={styles.moreError}>
              {state.moreError}
            </Alert>
          ) : null}
          {state.hasMore ? (
            <div className={styles.center}>
              <LoadMoreButton loading={state.loadingMore} onLoad={state.loadMore} />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
