/**
 * A person's listeners and the people they listen to (GET /profiles/{id}/listeners and
 * /listened-to), page after page: loaded with the dialog that shows them, not with the profile.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';

export type PeopleJson = components['schemas']['PeopleJson'];
export type PeopleSide = 'listeners' | 'listened-to';

export function fetchPeople(userId: string, side: PeopleSide, after: string | null, signal?: AbortSignal): Promise<PeopleJson> {
  const query = after ? `?after=${encodeURIComponent(after)}` : '';
  return request<PeopleJson>(`/profiles/${encodeURIComponent(userId)}/${side}${query}`, { signal });
}

export const peopleQueries = {
  list: (userId: string, side: PeopleSide, viewerId: string | undefined) =>
    infiniteQueryOptions({
      // The viewer is in the key: who is hidden (blocks) depends on who asks.
      queryKey: ['profiles', 'people', userId, side, viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }) => fetchPeople(userId, side, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: PeopleJson) => last.next ?? null,
      meta: { shows: ['listening', 'blocks', 'profile'] },
    }),
};
