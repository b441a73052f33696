import type { ReactNode } from 'react';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { EmptyState } from '../../../components/empty-state';
import { LyricsIcon } from '../../../components/first-load-icons';
import { LOAD_MORE_WORDS, LoadMoreButton } from '../../../components/load-more-button';
import { Spinner } from '../../../components/spinner';
import { POST_MESSAGES, postsErrorMessage, type PostPages } from '../api';
import type { DisplayPost } from '../types';
import { PostCard } from './post-card';
import { PostsTrackList } from './posts-track-list';
import styles from './feed-list.module.css';

export const FEED_WORDS = {
  ...LOAD_MORE_WORDS,
  tryAgain: 'Try Again',
} as const;

interface FeedListProps {
  /** useInfiniteQuery(postQueries.feed(...)) or (postQueries.byUser(...)). */
  query: UseInfiniteQueryResult<PostPages>;
  /** Names the list for screen readers ('For you'). */
  label: string;
  /** What an empty list says: 'No posts yet' (spec §8) unless told. */
  emptyTitle?: string;
  /** The line under it (spec §8). */
  emptyText?: string;
  /** What a failure says when there is no HTTP status to tell (spec §8: 'Failed to load feed'). */
  errorFallback?: string;
  /** What a failure says, when the list says it its own way (a search tells the server's words). */
  describeError?: (error: unknown, fallback: string) => string;
  /** Shown above the posts (and above the empty state), e.g. a feed's heading. */
  header?: ReactNode;
  /** Shown above a post's card (a search tells why it found it). */
  above?: (post: DisplayPost) => ReactNode;
}

/**
 * A list of posts as it loads (spec §4 Feed loading): a spinner, then the cards with 'Load More'
 * (reading 'Loading...' while busy, gone after a short page), or an error with 'Try Again', or
 * the empty state.
 */
export function FeedList({
  query,
  label,
  emptyTitle = POST_MESSAGES.emptyTitle,
  emptyText = POST_MESSAGES.emptyText,
  errorFallback = POST_MESSAGES.feedFailed,
  describeError = postsErrorMessage,
  header,
  above,
}: FeedListProps) {
  const { data } = query;

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <div className={styles.center}>
        <Spinner label="Loading posts" size="lg" />
      </div>
    );
  } else if (!data) {
    content = (
      <ErrorNotice
        message={describeError(query.error, errorFallback)}
        busy={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  } else {
    const posts = data.pages.flatMap((page) => page.posts);
    const loadingMore = query.isFetchingNextPage;
    content = (
      <>
        {posts.length === 0 && !query.hasNextPage ? (
          <EmptyState icon={<LyricsIcon size={26} />} title={emptyTitle} text={emptyText} />
        ) : (
          <PostsTrackList posts={posts}>
            <ul className={styles.list} aria-label={label} aria-busy={loadingMore || undefined}>
              {posts.map((post, index) => (
                <li key={post.id}>
                  {above?.(post)}
                  <PostCard post={post} first={index === 0} />
                </li>
              ))}
            </ul>
          </PostsTrackList>
        )}
        {query.isFetchNextPageError ? (
          <ErrorNotice
            message={describeError(query.error, errorFallback)}
            busy={loadingMore}
            onRetry={() => void query.fetchNextPage()}
          />
        ) : query.hasNextPage ? (
          <div className={styles.center}>
            <LoadMoreButton loading={loadingMore} onLoad={() => void query.fetchNextPage()} />
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className={styles.feed}>
      {header}
      {content}
    </div>
  );
}

function ErrorNotice({ message, busy, onRetry }: { message: string; busy: boolean; onRetry: () => void }) {
  return (
    <Alert tone="error" className={styles.error}>
      <p>{message}</p>
      <button
        type="button"
        className={`btn btn-secondary ${styles.retry}`}
        onClick={() => {
          if (!busy) onRetry();
        }}
        aria-disabled={busy || undefined}
      >
        {busy ? <Spinner size="sm" label="" /> : null}
        {FEED_WORDS.tryAgain}
      </button>
    </Alert>
  );
}
