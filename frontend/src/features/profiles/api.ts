/**
 * Calls of the profiles area (spec §7 Profiles: profile, stats, listening, blocks, avatar) and
 * their React Query factories. What search and Settings use of it is re-exported by index.ts,
 * the feature's public surface.
 *
 * Queries that depend on who is asking carry the viewer's id in their key, so a different
 * account signing in on the same tab never sees the previous one's lists. Each query names the
 * topics it shows and each mutation the topics it changes (lib/query-client): that is how a
 * listen or a block here refreshes search results, and later the feeds, elsewhere.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type MutateOptions } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, NetworkError, request } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';
import { patchPagedItems } from '../../lib/paged-items';
import { sessionQueries, useGoToSignIn, useSessionCheck, useViewer, type CurrentUser } from '../../lib/session';

// ---------------------------------------------------------------------------------------------
// Wire types (spec §3 User/profile, Stats; §7 Profiles), generated from the server's OpenAPI
// document (lib/api-schema.ts)

type Schemas = components['schemas'];

/** GET /profile/me/profile and GET /profiles/{id}. */
export type ProfileJson = Schemas['ProfileJson'];
/** The counts as sent; `listenedTo` and `listened_to` carry the same number. */
export type StatsJson = Schemas['StatsJson'];
/** A person in a list: listened-to list, blocked list. */
export type UserCardJson = Schemas['UserJson'];
export type MessageJson = Schemas['Message'];
export type AvatarJson = Schemas['AvatarJson'];
export type BlockStatusJson = Schemas['BlockStatus'];
/** PATCH /profile/me: a left-out field stays; description or tag_id null clears it. */
export type ProfileUpdate = Schemas['ProfilePatchJson'];

/**
 * A profile as `toProfile` reads it: any field may be missing or null (a blank name shows as
 * 'Unknown User', a missing description as no biography, missing stats as zeros), and the
 * listened-to count under either spelling (spec §3 Stats).
 */
export type ProfileInput = Lenient<ProfileJson>;

// ---------------------------------------------------------------------------------------------
// What the screens show

export interface Stats {
  posts: number;
  listeners: number;
  listenedTo: number;
}

export interface Profile {
  id: string;
  /** '' when the server sent none (the other-profile screen then says 'Unknown User'). */
  name: string;
  login: string;
  /** The description, trimmed; '' when there is none. */
  biography: string;
  avatarUrl: string | null;
  tagId: string | null;
  email: string | null;
  stats: Stats;
}

export const EMPTY_STATS: Stats = { posts: 0, listeners: 0, listenedTo: 0 };

function count(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Reads either spelling of the listened-to count (spec §3 Stats). */
export function toStats(json: Lenient<StatsJson> | null | undefined): Stats {
  if (!json) return EMPTY_STATS;
  return {
    posts: count(json.posts),
    listeners: count(json.listeners),
    listenedTo: count(json.listenedTo ?? json.listened_to),
  };
}

export function toProfile(json: ProfileInput): Profile {
  return {
    id: String(json.id),
    name: (json.name ?? '').trim(),
    login: json.login ?? '',
    biography: (json.description ?? json.biography ?? '').trim(),
    avatarUrl: json.avatar_url ?? null,
    tagId: json.tag_id ?? null,
    email: json.email ?? null,
    stats: toStats(json.stats),
  };
}

// ---------------------------------------------------------------------------------------------
// Calls

const enc = encodeURIComponent;

export async function fetchOwnProfile(signal?: AbortSignal): Promise<Profile> {
  return toProfile(await request<ProfileInput>('/profile/me/profile', { signal }));
}

export async function fetchProfile(userId: string, signal?: AbortSignal): Promise<Profile> {
  return toProfile(await request<ProfileInput>(`/profiles/${enc(userId)}`, { signal }));
}

export async function fetchStats(userId: string, signal?: AbortSignal): Promise<Stats> {
  return toStats(await request<Lenient<StatsJson>>(`/profiles/${enc(userId)}/stats`, { signal }));
}

export function fetchListened(signal?: AbortSignal): Promise<UserCardJson[]> {
  return request<UserCardJson[]>('/profiles/listened', { signal });
}

export function fetchBlockedUsers(signal?: AbortSignal): Promise<UserCardJson[]> {
  return request<UserCardJson[]>('/profiles/blocks', { signal, expiredNotice: BLOCKED_LIST_SIGN_IN });
}

/** Whether I blocked this user. A failed check counts as not blocked (spec §8 Block). */
export async function fetchBlockStatus(userId: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const answer = await request<BlockStatusJson>(`/profiles/blocks/check/${enc(userId)}`, { signal });
    return answer?.is_blocked === true;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error('Block status check failed', error);
    return false;
  }
}

export async function updateProfile(update: ProfileUpdate): Promise<Profile> {
  return toProfile(await request<ProfileInput>('/profile/me', { method: 'PATCH', json: update }));
}

export function uploadAvatar(file: File): Promise<AvatarJson> {
  const form = new FormData();
  form.append('avatar', file, file.name);
  return request<AvatarJson>('/profile/me/avatar', { method: 'PATCH', form });
}

export function setListening(userId: string, listen: boolean): Promise<MessageJson> {
  return request<MessageJson>(`/profiles/listening/${enc(userId)}`, { method: listen ? 'POST' : 'DELETE' });
}

/** The answer to a block call was not the JSON object the server always sends. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
  constructor() {
    super('Invalid response format');
  }
}

export async function setBlocked(userId: string, block: boolean): Promise<Lenient<MessageJson>> {
  const answer = await request<unknown>(`/profiles/blocks/${enc(userId)}`, { method: block ? 'POST' : 'DELETE' });
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw new InvalidResponseError();
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Query factories

export const profileQueries = {
  all: () => ['profiles'] as const,
  own: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...profileQueries.all(), 'own', viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchOwnProfile(signal),
      enabled: Boolean(viewerId),
      // Its name, avatar and tag are written by its own mutations (useUpdateProfile refetches).
      meta: { shows: ['listening', 'posts'] },
    }),
  details: () => [...profileQueries.all(), 'detail'] as const,
  detail: (userId: string) =>
    queryOptions({
      queryKey: [...profileQueries.details(), userId] as const,
      queryFn: ({ signal }) => fetchProfile(userId, signal),
      // A missing user stays missing: answer 'Try Again' at once instead of retrying.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 1,
      meta: { shows: ['profile', 'listening'] },
    }),
  allStats: () => [...profileQueries.all(), 'stats'] as const,
  stats: (userId: string) =>
    queryOptions({
      queryKey: [...profileQueries.allStats(), userId] as const,
      queryFn: ({ signal }) => fetchStats(userId, signal),
      retry: false,
      meta: { shows: ['listening', 'posts'] },
    }),
  allListened: () => [...profileQueries.all(), 'listened'] as const,
  listened: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...profileQueries.allListened(), viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchListened(signal),
      enabled: Boolean(viewerId),
      // A failure means "guest" (spec §8); no point asking twice.
      retry: false,
      meta: { shows: ['listening'] },
    }),
  allBlocks: () => [...profileQueries.all(), 'blocks'] as const,
  blocks: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...profileQueries.allBlocks(), viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchBlockedUsers(signal),
      retry: false,
      meta: { shows: ['blocks', 'profile'] },
    }),
  allBlockStatus: () => [...profileQueries.all(), 'block-status'] as const,
  blockStatus: (viewerId: string | undefined, userId: string) =>
    queryOptions({
      queryKey: [...profileQueries.allBlockStatus(), viewerId ?? null, userId] as const,
      queryFn: ({ signal }) => fetchBlockStatus(userId, signal),
      enabled: Boolean(viewerId),
      retry: false,
      meta: { shows: ['blocks'] },
    }),
};

// ---------------------------------------------------------------------------------------------
// Hooks

export interface ListeningState {
  /** Ids of the people the viewer listens to; null while unknown. */
  ids: ReadonlySet<string> | null;
  /** Signed out, or the listened list could not be loaded (spec §8: treated as guest). */
  guest: boolean;
  /** Still finding out. */
  pending: boolean;
}

/** Whom the viewer listens to (GET /profiles/listened). */
export function useListening(): ListeningState {
  const viewer = useViewer();
  const listened = useQuery(profileQueries.listened(viewer?.id));
  if (viewer === null) return { ids: null, guest: true, pending: false };
  if (viewer === undefined) return { ids: null, guest: false, pending: true };
  if (listened.isError) return { ids: null, guest: true, pending: false };
  if (!listened.data) return { ids: null, guest: false, pending: true };
  return { ids: new Set(listened.data.map((u) => String(u.id))), guest: false, pending: false };
}

export interface ListenVariables {
  user: UserCardJson;
  /** true: start listening (POST); false: stop (DELETE). */
  listen: boolean;
}

/**
 * Listen / Unlisten. On success the listened list changes at once, and everything showing
 * 'listening' (both people's counts, search results, feeds) is fetched again.
 */
export function useListenToggle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, listen }: ListenVariables) => setListening(user.id, listen),
    meta: { changes: ['listening'] },
    onSuccess: (_answer, { user, listen }) => {
      // The button flips now; the list the server sends next confirms it.
      queryClient.setQueriesData<UserCardJson[]>({ queryKey: profileQueries.allListened() }, (list) => {
        if (!list) return list;
        const rest = list.filter((u) => String(u.id) !== user.id);
        return listen ? [user, ...rest] : rest;
      });
    },
  });
}

/** What a screen does when its listen toggle ends; each reports failures its own way (spec §8). */
export type ListenCallbacks = MutateOptions<MessageJson, Error, ListenVariables>;

/**
 * Listen / Unlisten behind a button, on a profile or in the search results: a guest goes straight
 * to /sign-in, anyone else once the session is confirmed (useSessionCheck); then the toggle runs
 * with the screen's callbacks. `pending` covers the session check and the request.
 */
export function useListenAction(guest: boolean) {
  const goToSignIn = useGoToSignIn();
  const toggle = useListenToggle();
  const session = useSessionCheck();

  async function toggleListening(variables: ListenVariables, callbacks: ListenCallbacks): Promise<void> {
    if (guest) {
      goToSignIn();
      return;
    }
    await session.whenSignedIn(() => toggle.mutate(variables, callbacks));
  }

  return { pending: toggle.isPending || session.checking, toggleListening };
}

/** Block or unblock. Blocking also ends listening both ways, so that changes too. */
export function useBlockToggle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block }: { userId: string; block: boolean }) => setBlocked(userId, block),
    meta: { changes: ['blocks', 'listening'] },
    onSuccess: (_answer, { userId, block }) => {
      // The menu and the blocked list change now; the server's answers follow.
      queryClient.setQueriesData<boolean>(
        { queryKey: profileQueries.allBlockStatus(), predicate: (q) => q.queryKey.at(-1) === userId },
        block,
      );
      if (!block) {
        patchPagedItems(queryClient, profileQueries.allBlocks(), (u: UserCardJson) => String(u.id) === userId, () => null);
      }
    },
  });
}

/**
 * Save the Edit profile form, then fetch the profile again (spec §4 Profile edit). The answer to
 * the PATCH is already the new profile, so the screen is right even when that re-fetch fails;
 * `refetched` says whether it worked.
 */
export function useUpdateProfile(viewerId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (update: ProfileUpdate) => {
      const saved = await updateProfile(update);
      queryClient.setQueryData(profileQueries.own(viewerId).queryKey, saved);
      let refetched = true;
      try {
        await queryClient.fetchQuery({ ...profileQueries.own(viewerId), staleTime: 0 });
      } catch {
        refetched = false;
      }
      return { profile: saved, refetched };
    },
    // The nav bar, search results and (later) posts show the name, login and tag too.
    meta: { changes: ['profile'] },
  });
}

/** Upload a new avatar (PATCH /profile/me/avatar) and show it everywhere. */
export function useUploadAvatar(viewerId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAvatar(file),
    meta: { changes: ['profile'] },
    onSuccess: ({ avatar_url }) => {
      // Shown at once here and in the nav bar; everything else showing 'profile' refetches.
      queryClient.setQueryData<Profile>(profileQueries.own(viewerId).queryKey, (profile) =>
        profile ? { ...profile, avatarUrl: avatar_url } : profile,
      );
      queryClient.setQueryData<CurrentUser | null>(sessionQueries.me().queryKey, (me) =>
        me ? { ...me, avatar_url } : me,
      );
      void queryClient.invalidateQueries({ queryKey: [...profileQueries.all(), 'own'] });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Error words (spec §8)

export const LISTEN_MESSAGES = {
  blocked: 'Cannot listen to this user because either you have blocked them or they have blocked you.',
  failed: 'Failed to update listening status. Please try again.',
} as const;

/** What a Listen button says when listening cannot happen: I blocked them, or the server refused. */
export const LISTEN_STATES = { blocked: 'Blocked', unavailable: 'Unavailable' } as const;

/** Spec §8 Blocked list, on a 401: also what the sign-in page says when that call ended the session. */
export const BLOCKED_LIST_SIGN_IN = 'Please sign in to view blocked users';

export const PROFILE_ERRORS = {
  authRequired: 'Authentication required. Please sign in.',
  updateFailed: 'Profile update failed',
  avatarFailedTitle: 'Avatar upload failed',
  avatarFailed: 'Failed to upload avatar',
  refetchFailed: 'Failed to fetch updated profile',
} as const;

export const BLOCK_MESSAGES = {
  failed: 'Failed to update block status',
  network: 'Network error: Could not connect to server. Please check your connection.',
  badResponse: 'Server response error: Invalid response format.',
} as const;

/** What a failed block or unblock alerts (spec §8 Block); a 401 goes to /sign-in instead. */
export function blockErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.serverMessage ? `Error: ${error.serverMessage}` : BLOCK_MESSAGES.failed;
  }
  if (error instanceof NetworkError) return BLOCK_MESSAGES.network;
  if (error instanceof InvalidResponseError) return BLOCK_MESSAGES.badResponse;
  const message = error instanceof Error ? error.message : String(error);
  return `An error occurred: ${message}`;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
