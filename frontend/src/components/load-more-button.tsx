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
