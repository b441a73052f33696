import type { ReactNode } from 'react';
import { Alert } from '../../../components/alert';
import { LyricsIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import styles from './profile-posts.module.css';

/** Profile post lists are paged by 10 (spec §9). */
export const PROFILE_POSTS_PAGE_SIZE = 10;

export const PROFILE_POSTS_MESSAGES = {
  emptyTitle: 'No posts yet',
  ownEmptyText: 'Be the first to share something!',
  otherEmptyText: 'Posts will appear below',
  loadFailed: 'Failed to load posts',
} as const;

/**
 * The offset of the next page for `getNextPageParam`: a profile list has more only when its
 * last page came back with exactly 10 posts (spec §4 Feed loading).
 */
export function nextProfilePostsOffset(
  lastPage: readonly unknown[],
  allPages: ReadonlyArray<readonly unknown[]>,
): number | undefined {
  if (lastPage.length !== PROFILE_POSTS_PAGE_SIZE) return undefined;
  return allPages.reduce((total, page) => total + page.length, 0);
}

/** Where a profile's post list stands; an infinite query maps onto it one to one. */
export interface ProfilePostsState<T> {
  status: 'pending' | 'error' | 'success';
  posts: readonly T[];
  /** The error text shown with 'Try Again'. */
  error?: string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

/**
 * The posts of a profile. Posts arrive with a later issue: until then nobody has any, so the
 * list is settled and empty. That issue replaces this hook's body with
 * `useInfiniteQuery(postQueries.byUser(userId))` using `nextProfilePostsOffset`, and the screens
 * keep rendering `<ProfilePosts>` unchanged.
 */
export function useProfilePosts<T>(userId: string | undefined): ProfilePostsState<T> {
  void userId;
  return { status: 'success', posts: [], hasMore: false, loadingMore: false, loadMore: noop, retry: noop };
}

function noop() {}

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
        <div className={styles.empty}>
          <span className={styles.emptyIcon} aria-hidden="true">
            <LyricsIcon size={26} />
          </span>
          <p className={styles.emptyTitle}>{PROFILE_POSTS_MESSAGES.emptyTitle}</p>
          <p className={styles.emptyText}>{emptyText}</p>
        </div>
      ) : (
        <>
          <ul className={styles.list}>
            {state.posts.map((post) => (
              <li key={post.id}>{renderPost(post)}</li>
            ))}
          </ul>
          {state.hasMore ? (
            <div className={styles.center}>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={state.loadMore}
                disabled={state.loadingMore}
              >
                {state.loadingMore ? <Spinner size="sm" label="" /> : null}
                {state.loadingMore ? 'Loading...' : 'Load More'}
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
