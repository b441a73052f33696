import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { SESSION_EXPIRED_MESSAGE, onSessionExpired } from '../lib/http';
import { sessionQueries, type SignInState } from '../lib/session';
import { getToken } from '../lib/token-storage';

/**
 * The guard of auth-required routes (spec §2): asks the server who is signed in
 * (lib/session.ts); someone signed in lets the page render, anything else sends the visitor
 * to /sign-in. It does not check admin rights.
 *
 * The sign-in page is told where the visitor was, so signing in brings them back, and, when a
 * session ended under them, why they are there ('Session expired. Please sign in again.', or
 * the words of the call that found out).
 */
export function RequireAuth() {
  const me = useQuery(sessionQueries.me());
  const location = useLocation();
  const [expiredNotice, setExpiredNotice] = useState<string | null>(null);
  useEffect(() => onSessionExpired(({ notice }) => setExpiredNotice(notice)), []);

  // Wait for a first answer, and for a fresh one when the cached answer says "signed out"
  // (right after signing in, the cache may still hold the old null).
  if (me.isPending || (me.data == null && me.isFetching)) {
    return <PageSpinner label="Checking your session" />;
  }
  if (!me.data) {
    // A token still stored while the server says "nobody" is a dead one: that session ended too.
    const notice = expiredNotice ?? (getToken() ? SESSION_EXPIRED_MESSAGE : null);
    const state: SignInState = { from: `${location.pathname}${location.search}${location.hash}` };
    if (notice) state.notice = notice;
    return <Navigate to="/sign-in" replace state={state} />;
  }
  return <Outlet />;
}
