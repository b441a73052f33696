/**
 * Calls of the auth area (spec §7 Authentication) and their React Query factories: sign-in,
 * sign-up, verification, Google, log out, guest mode and account deletion, and account
 * security (issue 7): password reset by e-mail, changing the password, the list of signed-in
 * devices and signing out of them. Who is signed in (the session check) is shared by the whole
 * app and lives in lib/session.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, apiUrl, request } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';
import { appUrl } from '../../lib/config';
import { isIOS, isMobile } from '../../lib/platform';
import { forgetSession, sessionQueries, type CurrentUser } from '../../lib/session';
import { getToken } from '../../lib/token-storage';

// Wire types, generated from the server's OpenAPI document (lib/api-schema.ts).
type Schemas = components['schemas'];

export type SignUpInput = Schemas['SignupRequest'];
/** GET /auth/providers: whether Google sign-in is offered. */
export type Providers = Schemas['Providers'];
/** GET /authorization/sessions: one device signed in to the account ('Chrome on Linux', ...). */
export type SessionJson = Schemas['SessionJson'];

/**
 * The answers the pages read a field or two of. Each field may be missing: the page then falls
 * back to its own words (spec §8), or says the sign-in gave no token.
 */
export type SignUpResponse = Lenient<Schemas['SignupResponse']>;
export type SignInResponse = Lenient<Schemas['TokenResponse']>;
export type MessageResponse = Lenient<Schemas['Message']>;

export const authQueries = {
  all: () => ['auth'] as const,
  providers: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'providers'] as const,
      queryFn: ({ signal }) => request<Providers>('/auth/providers', { signal }),
      staleTime: Infinity,
      retry: 1,
    }),
  /** Every signed-in device of the account; the viewer is in the key (another sign-in, another list). */
  sessions: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...authQueries.all(), 'sessions', viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchSessions(signal),
    }),
};

/**
 * Signs in (spec §7). `code` is the second step of an account with two-factor sign-in: the
 * authenticator app's code or a recovery code, sent with the same e-mail and password.
 */
export function signIn(email: string, password: string, code?: string): Promise<SignInResponse> {
  const json: Schemas['LoginRequest'] = code === undefined ? { email, password } : { email, password, code };
  return request<SignInResponse>('/authorization/logindefault', {
    method: 'POST',
    json,
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
    json: { email } satisfies Schemas['EmailRequest'],
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
 * This browser's push subscription ends with the session, as its device does on the server
 * (Settings → Notifications on your devices). Best effort and never waited for; lib/push is
 * loaded only then, and only where a service worker could have subscribed.
 */
function endPushSubscription(): void {
  if (!('serviceWorker' in navigator)) return;
  import('../../lib/push').then((push) => push.unsubscribe()).catch(() => undefined);
}

/**
 * Log out (settings): POST /auth/logout, then forget the session whatever the server said;
 * the caller goes to /sign-in even on failure (spec §4).
 */
export function useLogOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logOut(),
    onSettled: () => {
      endPushSubscription();
      forgetSession(queryClient);
    },
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
    onSettled: (_answer, error) => {
      endPushSubscription();
      forgetSession(
        queryClient,
        error
          ? { text: DELETE_ACCOUNT_OUTCOME.failed, tone: 'warning' }
          : { text: DELETE_ACCOUNT_OUTCOME.deleted, tone: 'info' },
      );
    },
  });
}

/**
 * Guest mode (spec §4): clear tokens, call logout, go to /home. The token is read before it is
 * cleared so the server session it names still ends. Any HTTP answer is fine (a visitor who was
 * never signed in gets a 401); only an unreachable server is an error.
 */
export async function enterGuestMode(queryClient: QueryClient): Promise<void> {
  const token = getToken();
  endPushSubscription();
  forgetSession(queryClient);
  try {
    await logOut(token);
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Account security (issue 7)

/** Asks for a reset link by e-mail; the answer is the same whether the address has an account. */
export function requestPasswordReset(email: string): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/password-reset', {
    method: 'POST',
    json: { email } satisfies Schemas['EmailRequest'],
    token: null,
  });
}

/** Sets a new password with the e-mailed token; every session of the account ends. */
export function confirmPasswordReset(token: string, password: string): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/password-reset/confirm', {
    method: 'POST',
    json: { token, password } satisfies Schemas['ResetRequest'],
    token: null,
  });
}

/** Changes the signed-in account's password; every other session ends, this one stays. */
export function changePassword(currentPassword: string, newPassword: string): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/password', {
    method: 'POST',
    json: { current_password: currentPassword, new_password: newPassword } satisfies Schemas['ChangePasswordRequest'],
    sessionScoped: true,
  });
}

export function fetchSessions(signal?: AbortSignal): Promise<SessionJson[]> {
  return request<SessionJson[]>('/authorization/sessions', { signal, sessionScoped: true });
}

/** Ends one of the account's sessions (404 when it is not one of them, or already over). */
export function endSession(id: string): Promise<MessageResponse> {
  return request<MessageResponse>(`/authorization/sessions/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    sessionScoped: true,
  });
}

/** Ends every session of the account, this one included, and clears the server's cookie. */
export function logOutEverywhere(): Promise<MessageResponse> {
  return request<MessageResponse>('/authorization/logout-all', { method: 'POST', sessionScoped: true });
}

/** What the sign-in page says after a password reset or "Sign out everywhere". */
export const ACCOUNT_SECURITY_NOTICES = {
  passwordReset: 'Your password was changed. Sign in with your new password.',
  signedOutEverywhere: 'You were signed out on every device.',
} as const;

/** After a change of password the other devices are gone from the list: it is asked again. */
function refreshSessions(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...authQueries.all(), 'sessions'] });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      changePassword(input.currentPassword, input.newPassword),
    onSuccess: () => void refreshSessions(queryClient),
  });
}

/**
 * Signs one other device out, then asks for the list again (pending until it is back, so the row
 * goes as the button settles). A 404 means that session was already over: the list is refreshed
 * too, and the error still reaches the caller.
 */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => endSession(id),
    onSuccess: () => refreshSessions(queryClient),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404) void refreshSessions(queryClient);
    },
  });
}

/**
 * "Sign out everywhere": on success this session is over too, so it is forgotten here, leaving
 * the sign-in page the words to say (the caller goes there).
 */
export function useLogOutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logOutEverywhere(),
    onSuccess: () => {
      endPushSubscription();
      forgetSession(queryClient, { text: ACCOUNT_SECURITY_NOTICES.signedOutEverywhere, tone: 'info' });
    },
  });
}

/**
 * After a password reset every session of that account is over. If this browser was signed in
 * to it, the session is forgotten and the sign-in page gets the notice; returns false when the
 * browser is still signed in (to another account), which the sign-in page would skip past.
 */
export async function afterPasswordReset(queryClient: QueryClient): Promise<boolean> {
  let someone: CurrentUser | null = null;
  try {
    someone = await queryClient.fetchQuery({ ...sessionQueries.me(), staleTime: 0, retry: false });
  } catch {
    // Offline: nothing to tell apart, go on to sign in.
  }
  if (someone) return false;
  forgetSession(queryClient, { text: ACCOUNT_SECURITY_NOTICES.passwordReset, tone: 'info' });
  return true;
}
