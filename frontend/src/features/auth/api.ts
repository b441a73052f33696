/**
 * Calls of the auth area (spec §7 Authentication) and their React Query factories. This file is
 * the auth feature's public surface: the route guard, the navigation bar and settings read the
 * current user and sign out through it.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiUrl, request } from '../../lib/http';
import { appUrl } from '../../lib/config';
import { isIOS, isIOSSafari, isMobile } from '../../lib/platform';
import { clearTokens, getToken } from '../../lib/token-storage';

/** GET /authorization/me */
export interface CurrentUser {
  id: string;
  name: string;
  login: string;
  description: string | null;
  avatar_url: string | null;
  tag_id: string | null;
  email: string;
}

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
}

export interface SignUpResponse {
  message?: string;
  email?: string;
}

export interface SignInResponse {
  access_token?: string;
  token_type?: string;
}

export interface MessageResponse {
  message?: string;
}

export interface Providers {
  google: boolean;
}

/** Extra headers that stop iOS Safari from answering the session check from its cache. */
const IOS_CACHE_BUSTING = {
  'Cache-Control': 'no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
  Expires: '0',
};

/**
 * The signed-in user, or null when the server says nobody is signed in. Any non-OK answer
 * counts as signed out (spec §2: "an OK answer means signed in"); only a network failure is
 * an error, so the guard can tell "offline" from "signed out" while still sending both to
 * /sign-in.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await request<CurrentUser>('/authorization/me', {
      noCache: true,
      headers: isIOSSafari() ? IOS_CACHE_BUSTING : undefined,
      signal,
    });
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export const authQueries = {
  all: () => ['auth'] as const,
  me: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'me'] as const,
      queryFn: ({ signal }) => fetchCurrentUser(signal),
      retry: 1,
      staleTime: 30_000,
    }),
  providers: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'providers'] as const,
      queryFn: ({ signal }) => request<Providers>('/auth/providers', { signal }),
      staleTime: Infinity,
      retry: 1,
    }),
};

export function signIn(email: string, password: string): Promise<SignInResponse> {
  return request<SignInResponse>('/authorization/logindefault', {
    method: 'POST',
    json: { email, password },
    token: null,
  });
}

export function signUp(input: SignUpInput): Promise<SignUpResponse> {
  return request<SignUpResponse>('/authorization/signup', {
    method: 'POST',
    json: input,
    token: null,
  });
}

export function resendVerification(email: string): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/resend-verification', {
    method: 'POST',
    json: { email },
    token: null,
  });
}

/** Ends the server session (bearer + cookies). */
export function logOut(token?: string | null): Promise<MessageResponse> {
  return request<MessageResponse>('/auth/logout', { method: 'POST', token });
}

export function deleteAccount(): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/me', { method: 'DELETE' });
}

/** Google sign-in from the sign-in page: the server sends the browser back to us with a token. */
export function googleSignInUrl(): string {
  const state = encodeURIComponent(appUrl('/sign-in'));
  return apiUrl(`/auth/login?state=${state}&mobile=${isMobile()}&ios=${isIOS()}`);
}

/** Google sign-up uses the same path without parameters (spec §7). */
export function googleSignUpUrl(): string {
  return apiUrl('/auth/login');
}

/** Forget the session locally: tokens and every cached query that depended on who we are. */
export function forgetSession(queryClient: QueryClient): void {
  clearTokens();
  queryClient.setQueryData(authQueries.me().queryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
}

/**
 * Log out (settings): POST /auth/logout, then forget the session whatever the server said;
 * the caller goes to /sign-in even on failure (spec §4).
 */
export function useLogOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logOut(),
    onSettled: () => forgetSession(queryClient),
  });
}

/** Delete account (settings): DELETE /authorization/me, then forget the session either way. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteAccount(),
    onSettled: () => forgetSession(queryClient),
  });
}

/**
 * Guest mode (spec §4): clear tokens, call logout, go to /home. The token is read before it is
 * cleared so the server session it names still ends. Any HTTP answer is fine (a visitor who was
 * never signed in gets a 401); only an unreachable server is an error.
 */
export async function enterGuestMode(queryClient: QueryClient): Promise<void> {
  const token = getToken();
  forgetSession(queryClient);
  try {
    await logOut(token);
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
}
