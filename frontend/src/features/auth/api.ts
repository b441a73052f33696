/**
 * Calls of the auth area (spec §7 Authentication) and their React Query factories: sign-in,
 * sign-up, verification, Google, log out, guest mode and account deletion. Who is signed in
 * (the session check) is shared by the whole app and lives in lib/session.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiUrl, request } from '../../lib/http';
import { appUrl } from '../../lib/config';
import { isIOS, isMobile } from '../../lib/platform';
import { forgetSession } from '../../lib/session';
import { getToken } from '../../lib/token-storage';

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

export const authQueries = {
  all: () => ['auth'] as const,
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

/**
 * Google sign-in from the sign-in page: the server sends the browser back to `state` with a
 * token. A return path rides along as `?next=`, which app/start.ts follows once the token is in.
 */
export function googleSignInUrl(returnTo: string | null = null): string {
  const back = returnTo ? `/sign-in?next=${encodeURIComponent(returnTo)}` : '/sign-in';
  const state = encodeURIComponent(appUrl(back));
  return apiUrl(`/auth/login?state=${state}&mobile=${isMobile()}&ios=${isIOS()}`);
}

/** Google sign-up uses the same path without parameters (spec §7). */
export function googleSignUpUrl(): string {
  return apiUrl('/auth/login');
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

/** What the sign-in page says after Delete account (it is reached either way, spec §4). */
export const DELETE_ACCOUNT_OUTCOME = {
  deleted: 'Your account has been deleted.',
  failed: 'Your account could not be deleted. Sign in and try again from Settings.',
} as const;

/**
 * Delete account (settings): DELETE /authorization/me, then forget the session either way,
 * leaving the sign-in page the outcome to say.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteAccount(),
    onSettled: (_answer, error) =>
      forgetSession(
        queryClient,
        error
          ? { text: DELETE_ACCOUNT_OUTCOME.failed, tone: 'warning' }
          : { text: DELETE_ACCOUNT_OUTCOME.deleted, tone: 'info' },
      ),
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
