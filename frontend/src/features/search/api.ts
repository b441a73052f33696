/** The user search (spec §2 Search, §5 Search, §7 GET /profiles/search) and its query factory. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';

/** Typing waits this long before searching (spec §9). */
export const SEARCH_DEBOUNCE_MS = 300;

/** One person found; `active`: the signed-in searcher already listens to them (generated type). */
export type SearchHitJson = components['schemas']['SearchHitJson'];

/** GET /profiles/search; an empty query is left out (the server then lists the newest people). */
export function searchProfiles(query: string, signal?: AbortSignal): Promise<SearchHitJson[]> {
  const trimmed = query.trim();
  const path = trimmed ? `/profiles/search?query=${encodeURIComponent(trimmed)}` : '/profiles/search';
  return request<SearchHitJson[]>(path, { signal });
}

export const searchQueries = {
  all: () => ['search'] as const,
  /** `viewerId` is in the key because `active` depends on who asks. */
  profiles: (query: string, viewerId: string | null) =>
    queryOptions({
      queryKey: [...searchQueries.all(), 'profiles', { query: query.trim(), viewer: viewerId }] as const,
      queryFn: ({ signal }) => searchProfiles(query, signal),
      // Keep the last results on screen while the next ones arrive.
      placeholderData: keepPreviousData,
      staleTime: 15_000,
      // `active` follows listening (and blocking ends it); names and avatars may change.
      meta: { shows: ['listening', 'blocks', 'profile'] },
    }),
};
