/**
 * Other servers, from the admin panel (issue 33, beyond the spec; docs/federation.md): the
 * servers an admin blocked, blocking one (its people's accounts here go, with their likes,
 * reposts, replies and follows) and lifting a block. While federation is off the server answers
 * 404, and the page says federation is off.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, request, type RequestOptions } from '../../lib/http';
import { invalidateTopics } from '../../lib/query-client';
import { ADMIN_MESSAGES, adminQueries } from './api';

type Schemas = components['schemas'];

/** A blocked server: its name, who blocked it and when. */
export type BlockedDomainJson = Schemas['BlockedDomainJson'];
/** What POST answers: the name as blocked, and how many accounts went with it. */
export type DomainBlockedJson = Schemas['DomainBlockedJson'];

export const SERVERS_WORDS = {
  heading: 'Other servers',
  lead: 'People on Mastodon and other servers can follow, like, boost, reply to and report posts here. Blocking a server removes its people’s accounts here, with their likes, reposts, replies and follows, and takes nothing more from it.',
  off: 'Federation is off on this server. An operator turns it on with SELFSOUND_FEDERATION=on and a public https address.',
  label: 'Server to block',
  placeholder: 'social.example',
  block: 'Block server',
  blocking: 'Blocking...',
  unblock: 'Lift block',
  unblocking: 'Lifting...',
  none: 'No blocked servers',
  loadFailed: 'Failed to load the blocked servers',
  blockFailed: 'Failed to block the server',
  unblockFailed: 'Failed to lift the block',
  listLabel: 'Blocked servers',
} as const;

const ADMIN_CALL: RequestOptions = { sessionScoped: true, expiredNotice: ADMIN_MESSAGES.authRequired };
const PATH = '/admin/federation/blocked-domains';

export function fetchBlockedDomains(signal?: AbortSignal): Promise<BlockedDomainJson[]> {
  return request<BlockedDomainJson[]>(PATH, { ...ADMIN_CALL, signal });
}

export function blockDomain(domain: string): Promise<DomainBlockedJson> {
  return request<DomainBlockedJson>(PATH, {
    ...ADMIN_CALL,
    method: 'POST',
    json: { domain } satisfies Schemas['DomainJson'],
  });
}

export function unblockDomain(domain: string): Promise<void> {
  return request<void>(`${PATH}/${encodeURIComponent(domain)}`, { ...ADMIN_CALL, method: 'DELETE' });
}

/** Whether an error says federation is off (every federation address answers 404 then). */
export function federationOff(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export const serverQueries = {
  all: () => [...adminQueries.all(), 'servers'] as const,
  blocked: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...serverQueries.all(), viewerId ?? null, 'blocked'] as const,
      queryFn: ({ signal }) => fetchBlockedDomains(signal),
      enabled: Boolean(viewerId),
      // A refusal or federation being off stays so: answer at once.
      retry: (failures: number, error: Error) => !(error instanceof ApiError && error.status < 500) && failures < 1,
    }),
};

/** What a failed block or lift says: the server's words (a 400 or 409 says why), or ours. */
export function serverErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: serverQueries.all() });
    // Accounts went: their likes, reposts and comments leave every list.
    void invalidateTopics(queryClient, ['posts']);
  };
}

export function useBlockDomain() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: blockDomain, onSettled: refresh });
}

export function useUnblockDomain() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: unblockDomain, onSettled: refresh });
}
