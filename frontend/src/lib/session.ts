/**
 * Who is signed in, for every part of the app: the session check (GET /authorization/session), the
 * viewer hook, the "ask the server first" check of Listen and Block (spec §6), forgetting a
 * session, and sending someone to sign in so that they come back where they were.
 *
 * It lives in lib/ rather than in a feature because the shell (guard, nav bar) and every
 * feature need it, and features may not import each other's internals.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { components } from './api-schema';
import { ApiError, request } from './http';
import { isIOSSafari } from './platform';
import { clearTokens, getToken } from './token-storage';

/**
 * GET /authorization/me, generated from the server's OpenAPI document (lib/api-schema.ts).
 * `is_admin`: the account may use the admin panel (its calls still ask the server each time).
 */
export type CurrentUser = components['schemas']['Me'];
type SessionAnswer = components['schemas']['SessionAnswer'];

/** Extra headers that stop iOS Safari from answering the session check from its cache. */
const IOS_CACHE_BUSTING = {
  'Cache-Control': 'no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
  Expires: '0',
};

/**
 * The signed-in user, or null when the server says nobody is signed in. The app asks
 * GET /authorization/session, which answers a guest (or a dead token) 200 `{"user": null}`
 * where the spec's GET /authorization/me answers 401, so a guest's console stays clean. Any
 * non-OK answer still counts as signed out (spec §2: "an OK answer means signed in"); only a
 * network failure is an error, so the guard can tell "offline" from "signed out" while still
 * sending both to /sign-in.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    const answer = await request<SessionAnswer>('/authorization/session', {
      noCache: true,
      headers: isIOSSafari() ? IOS_CACHE_BUSTING : undefined,
      signal,
    });
    return answer.user ?? null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export const sessionQueries = {
  all: () => ['session'] as const,
  me: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'me'] as const,
      queryFn: ({ signal }) => fetchCurrentUser(signal),
      retry: 1,
      staleTime: 30_000,
      // The nav bar shows the viewer's name and avatar.
      meta: { shows: ['profile'] },
    }),
};

/**
 * Who the stored token says is signed in, for what may be asked before the session check has
 * answered (issue 34: the first feed page is asked beside the check, not after it): the token's
 * `sub` while it has not expired, null with no token, undefined when it cannot tell (an
 * expired or unreadable token: the check decides).
 */
export function tokenViewerId(): string | null | undefined {
  const token = getToken();
  if (!token) return null;
  try {
    const claims: unknown = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
    const { sub, exp } = claims as { sub?: unknown; exp?: unknown };
    return typeof sub === 'string' && typeof exp === 'number' && exp * 1000 > Date.now() ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** The signed-in user as the session check knows it: a user, null (signed out) or undefined (asking). */
export function useViewer(): CurrentUser | null | undefined {
  return useQuery(sessionQueries.me()).data;
}

/**
 * Blocking and listening first ask the server who is signed in (spec §6); null means the caller
 * goes to /sign-in.
 */
export async function ensureSignedIn(queryClient: QueryClient): Promise<CurrentUser | null> {
  try {
    return await queryClient.fetchQuery({ ...sessionQueries.me(), staleTime: 0 });
  } catch {
    return null;
  }
}

/**
 * A stored token the session check answers "nobody" to is dead (expired, or its account is
 * gone): forget it on that first 401, so the app stops sending it and nothing half-trusts it.
 * Used by the app's layout; the sign-in page keeps it (guest mode still ends that session).
 */
export function useForgetDeadToken(): void {
  const me = useQuery(sessionQueries.me());
  const answeredNobody = me.data === null && !me.isFetching;
  useEffect(() => {
    if (answeredNobody && getToken()) clearTokens();
  }, [answeredNobody]);
}

/**
 * Unsaved input a screen keeps in session storage under this prefix survives a session that
 * expires (signing in again brings it back) but not a deliberate log out (forgetSession).
 */
export const DRAFT_KEY_PREFIX = 'draft:';

function forgetDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(DRAFT_KEY_PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // No storage, no drafts.
  }
}

/** A line above the sign-in form: news ('info') or something to act on ('warning'). */
export interface SignInNotice {
  text: string;
  tone: 'info' | 'warning';
}

/**
 * What the sign-in page says next when this tab ends its own session with news to tell (the
 * account was deleted). Router state cannot carry it: ending the session also makes the route
 * guard send the visitor to /sign-in, and whichever navigation lands last decides the state.
 */
let farewell: SignInNotice | null = null;

/** The pending farewell, if any; the sign-in page shows it and then calls clearFarewell. */
export function peekFarewell(): SignInNotice | null {
  return farewell;
}

export function clearFarewell(): void {
  farewell = null;
}

/**
 * Forget the session locally: tokens, drafts, and every cached answer that depended on who
 * asked (everything but the session check itself, which now says "nobody"). `notice` is what
 * the sign-in page says next.
 */
export function forgetSession(queryClient: QueryClient, notice?: SignInNotice): void {
  farewell = notice ?? null;
  clearTokens();
  forgetDrafts();
  queryClient.setQueryData(sessionQueries.me().queryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0] });
}

// ---------------------------------------------------------------------------------------------
// Going to sign in, and coming back

/** What the sign-in page is told (router state) by whoever sent the visitor there. */
export interface SignInState {
  /** Where the visitor was: an address inside the app to return to after signing in. */
  from?: string;
  /** Why they are here, shown above the form (e.g. 'Session expired. Please sign in again.'). */
  notice?: string;
  /** 'info' for news ('Your account has been deleted.'); a warning otherwise. */
  tone?: 'info' | 'warning';
  /**
   * The visitor is signed in, but this account may not go to `from` ('Admin access required'):
   * the form shows anyway, to sign in with another one, instead of sending them back there.
   */
  anotherAccount?: boolean;
}

/** Pages a return address must never be: after signing in, they would only send you on. */
const NO_RETURN = /^\/(sign-in|sign-up|verify)(\/|$)/;

/**
 * `value` as an address inside the app to return to, or null. Only a local path is accepted
 * ('/settings?x#y'), never an absolute or protocol-relative URL, so a crafted link cannot send
 * someone who signs in to another site.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return null;
  if (/[\\\s]/.test(value)) return null;
  const base = 'http://app.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base || NO_RETURN.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The router state a sign-in page receives, read defensively (it may come from anywhere). */
export function readSignInState(state: unknown): { from: string | null; notice: SignInNotice | null } {
  const record = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  const text = typeof record.notice === 'string' && record.notice !== '' ? record.notice : null;
  return {
    from: safeReturnPath(record.from),
    notice: text ? { text, tone: record.tone === 'info' ? 'info' : 'warning' } : null,
  };
}

/**
 * Sends the visitor to /sign-in, remembering the current address so that signing in brings
 * them back, with an optional notice saying why.
 */
export function useGoToSignIn(): (notice?: string) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (notice) => {
    const state: SignInState = { from: `${location.pathname}${location.search}${location.hash}` };
    if (notice) state.notice = notice;
    void navigate('/sign-in', { state });
  };
}

/**
 * For a button that needs a session (Listen, Block): `whenSignedIn(action)` asks the server who is
 * signed in (ensureSignedIn) and runs the action, or sends a signed-out visitor to /sign-in.
 * `checking` is true while it asks.
 */
export function useSessionCheck() {
  const goToSignIn = useGoToSignIn();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);

  async function whenSignedIn(action: () => void): Promise<void> {
    setChecking(true);
    const me = await ensureSignedIn(queryClient);
    setChecking(false);
    if (!me) {
      goToSignIn();
      return;
    }
    action();
  }

  return { checking, whenSignedIn };
}
