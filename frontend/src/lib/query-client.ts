/**
 * The app's React Query client, and how a change in one feature refreshes what another shows.
 *
 * A mutation names what it changed (`meta: { changes: ['blocks'] }`); a query names what it shows
 * (`meta: { shows: ['blocks', 'listening'] }`). When a mutation succeeds, the MutationCache marks
 * every query showing one of those topics stale, and the ones on screen fetch again. So blocking
 * someone (profiles) refreshes the feeds (posts) without either feature importing the other:
 * both only name a topic from this list.
 */
import { MutationCache, QueryClient, type DefaultOptions, type Query } from '@tanstack/react-query';

/** What a mutation can change and a query can show. */
export type Topic =
  /** Who listens to whom: listened lists, Listeners / Listened to counts, the listened-to feed. */
  | 'listening'
  /** Who blocked whom: the blocked list, block status, what a blocked pair may see of each other. */
  | 'blocks'
  /** A person's name, login, avatar, tag or biography, wherever they are shown. */
  | 'profile'
  /** Which posts exist: feeds, profile post lists, post counts (a post created or deleted). */
  | 'posts'
  /** Playlists and their items: a playlist page, a person's playlists, the add-to-playlist picker. */
  | 'playlists'
  /** Which recording a score follows, and its sync map: the score's page and the recording's. */
  | 'recordings';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { shows?: readonly Topic[] };
    mutationMeta: { changes?: readonly Topic[] };
  }
}

function showsAny(query: Query, topics: readonly Topic[]): boolean {
  return query.meta?.shows?.some((topic) => topics.includes(topic)) ?? false;
}

/** Marks every query showing one of `topics` stale; those in use fetch again. */
export function invalidateTopics(queryClient: QueryClient, topics: readonly Topic[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => showsAny(query, topics) });
}

const APP_DEFAULTS: DefaultOptions = {
  queries: { retry: 1, refetchOnWindowFocus: true },
  mutations: { retry: false },
};

/** The client of the app (and, with test defaults, of component tests). */
export function createQueryClient(defaultOptions: DefaultOptions = APP_DEFAULTS): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    defaultOptions,
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        const topics = mutation.meta?.changes;
        // Not awaited: the mutation is done when the server said so, not when every list is fresh.
        if (topics?.length) void invalidateTopics(queryClient, topics);
      },
    }),
  });
  return queryClient;
}
