import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SignInState } from '../../lib/session';
import { ADMIN_MESSAGES, refusalOf } from './api';

/**
 * Sends the visitor to /sign-in when the server refuses the panel (spec §6, §8 Admin), with the
 * spec's words above the form: a 403 says 'Admin access required' and keeps the form for a
 * signed-in non-admin (to sign in as an admin), a 401 says 'Authentication required'. Signing
 * in comes back here. Returns the refusal, so the page can show it while it leaves.
 */
export function useLeaveWhenRefused(error: unknown): string | null {
  const refusal = refusalOf(error);
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const from = `${pathname}${search}${hash}`;
  useEffect(() => {
    if (!refusal) return;
    const state: SignInState = { from, notice: refusal };
    if (refusal === ADMIN_MESSAGES.adminRequired) state.anotherAccount = true;
    void navigate('/sign-in', { replace: true, state });
  }, [refusal, from, navigate]);
  return refusal;
}
