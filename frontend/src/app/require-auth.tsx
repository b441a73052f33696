import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { sessionQueries } from '../lib/session';

/**
 * The guard of auth-required routes (spec §2): asks the server who is signed in
 * (GET /authorization/me); an OK answer lets the page render, anything else sends the visitor
 * to /sign-in. It does not check admin rights.
 */
export function RequireAuth() {
  const me = useQuery(sessionQueries.me());

  // Wait for a first answer, and for a fresh one when the cached answer says "signed out"
  // (right after signing in, the cache may still hold the old null).
  if (me.isPending || (me.data == null && me.isFetching)) {
    return <PageSpinner label="Checking your session" />;
  }
  if (!me.data) {
    return <Navigate to="/sign-in" replace />;
  }
  return <Outlet />;
}
