/**
 * Suspending accounts from the admin panel (issue 16, beyond the spec): whether a person is
 * suspended, the suspended accounts a page at a time, suspending with a reason and lifting. Like
 * the panel's other calls, every query carries the viewer's id in its key and a 401 ends the
 * stored session.
 *
 * A suspension ends the person's sessions and hides what they wrote everywhere until it is
 * lifted, so both mutations refresh every post list (the 'posts' topic) and the complaints
 * (whose history shows a suspension made from them).
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, request, type RequestOptions } from '../../lib/http';
import { invalidateTopics } from '../../lib/query-client';
import { ADMIN_MESSAGES, adminQueries } from './api';

type Schemas = components['schemas'];

/** A standing suspension: who, why, by whom and since when. */
export type SuspensionJson = Schemas['SuspensionJson'];
/** GET /admin/users/{id}/suspend, and what POST answers. */
export type SuspensionStateJson = Schemas['SuspensionStateJson'];

export const SUSPENSION_WORDS = {
  suspend: 'Suspend author',
  suspending: 'Suspending...',
  lift: 'Lift suspension',
  lifting: 'Lifting...',
  suspended: 'Account suspended',
  lifted: 'Suspension lifted',
  suspendFailed: 'Failed to suspend the account',
  liftFailed: 'Failed to lift the suspension',
  loadFailed: 'Failed to load suspensions',
  none: 'No suspended accounts',
  reasonLabel: 'Reason',
  reasonHint: 'Kept with the suspension and in the audit log. The person is signed out everywhere at once.',
  reasonRequired: 'Please give a reason for the suspension.',
} as const;

/** The most characters a reason may have (the server's rule). */
export const REASON_MAX = 500;
/** How many suspended accounts a page of the list shows. */
export const SUSPENDED_PAGE = 20;

const ADMIN_CALL: RequestOptions = { sessionScoped: true, expiredNotice: ADMIN_MESSAGES.authRequired };

const path = (userId: string) => `/admin/users/${encodeURIComponent(userId)}/suspend`;

export function fetchSuspension(userId: string, signal?: AbortSignal): Promise<SuspensionStateJson> {
  return request<SuspensionStateJson>(path(userId), { ...ADMIN_CALL, signal });
}

/** A page of the suspended accounts, the latest first, older than the suspension `before`. */
export function fetchSuspended(before: string | null, signal?: AbortSignal): Promise<SuspensionJson[]> {
  const cursor = before ? `&before=${encodeURIComponent(before)}` : '';
  return request<SuspensionJson[]>(`/admin/users/suspended?limit=${SUSPENDED_PAGE}${cursor}`, {
    ...ADMIN_CALL,
    signal,
  });
}

export interface SuspendVariables {
  userId: string;
  reason: string;
  /** The complaint this answers: the server lists the suspension in its history. */
  reportId?: string;
}

export function suspendAccount({ userId, reason, reportId }: SuspendVariables): Promise<SuspensionStateJson> {
  return request<SuspensionStateJson>(path(userId), {
    ...ADMIN_CALL,
    method: 'POST',
    json: { reason, report_id: reportId ?? null } satisfies Schemas['SuspendJson'],
  });
}

export function liftSuspension(userId: string): Promise<void> {
  return request<void>(path(userId), { ...ADMIN_CALL, method: 'DELETE' });
}

/** A refusal or a missing person stays so: answer at once instead of asking again. */
function retryUnlessRefused(failures: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && failures < 1;
}

export const suspensionQueries = {
  all: () => [...adminQueries.all(), 'suspensions'] as const,
  state: (viewerId: string | undefined, userId: string) =>
    queryOptions({
      queryKey: [...suspensionQueries.all(), viewerId ?? null, 'user', userId] as const,
      queryFn: ({ signal }) => fetchSuspension(userId, signal),
      enabled: Boolean(viewerId) && Boolean(userId),
      retry: retryUnlessRefused,
    }),
  list: (viewerId: string | undefined) =>
    infiniteQueryOptions({
      queryKey: [...suspensionQueries.all(), viewerId ?? null, 'list'] as const,
      queryFn: ({ pageParam, signal }) => fetchSuspended(pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: SuspensionJson[]) =>
        last.length < SUSPENDED_PAGE ? null : (last[last.length - 1]?.id ?? null),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
    }),
};

/** What a failed suspension or lift says: the server's words (a 409 says why), or ours. */
export function suspensionErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

function useRefreshAfterSuspension() {
  const queryClient = useQueryClient();
  return (userId: string, state?: SuspensionStateJson) => {
    if (state) {
      // Shown at once wherever this person's state is on screen; then fetched again.
      queryClient.setQueriesData<SuspensionStateJson>(
        {
          queryKey: suspensionQueries.all(),
          predicate: ({ queryKey }) => queryKey.at(-2) === 'user' && queryKey.at(-1) === userId,
        },
        state,
      );
    }
    void queryClient.invalidateQueries({ queryKey: suspensionQueries.all() });
    void queryClient.invalidateQueries({ queryKey: adminQueries.allComplaints() });
    void invalidateTopics(queryClient, ['posts']);
  };
}

/** Suspends an account; the person's state, the list, the complaints and post lists follow. */
export function useSuspend() {
  const refresh = useRefreshAfterSuspension();
  return useMutation({
    mutationFn: suspendAccount,
    onSuccess: (answer, { userId }) => refresh(userId, answer),
    // Suspended or lifted meanwhile by someone else (409): show how things stand.
    onError: (_error, { userId }) => refresh(userId),
  });
}

/** Lifts a suspension; everything the person wrote shows again. */
export function useLiftSuspension() {
  const refresh = useRefreshAfterSuspension();
  return useMutation({
    mutationFn: liftSuspension,
    onSuccess: (_answer, userId) => refresh(userId, { suspended: false, suspension: null }),
    onError: (_error, userId) => refresh(userId),
  });
}
