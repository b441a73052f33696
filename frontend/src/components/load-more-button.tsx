import { Spinner } from './spinner';

export const LOAD_MORE_WORDS = { loadMore: 'Load More', loading: 'Loading...' } as const;

interface LoadMoreButtonProps {
  /** The next page is on its way: the button reads 'Loading...' and does nothing. */
  loading: boolean;
  onLoad: () => void;
}

/**
 * 'Load More' under a paged list (spec §4 Feed loading, Notifications), reading 'Loading...'
 * while busy. It is aria-disabled rather than disabled then, so keyboard focus stays on it.
 */
export function LoadMoreButton({ loading, onLoad }: LoadMoreButtonProps) {
  return (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={() => {
        if (!loading) onLoad();
      }}
      aria-disabled={loading || undefined}
    >
      {loading ? <Spinner size="sm" label="" /> : null}
      {loading ? LOAD_MORE_WORDS.loading : LOAD_MORE_WORDS.loadMore}
    </button>
  );
}

/** What `MoreOf` reads of a paged query (React Query's infinite query). */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** 'Load More' under a paged list while it has a next page, in a wrapper of the list's own. */
export function MoreOf({ query, className }: { query: PagedQuery; className?: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className={className}>
      <LoadMoreButton loading={query.isFetchingNextPage} onLoad={() => void query.fetchNextPage()} />
    </div>
  );
}
