import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SignInState } from '../../lib/session';
import { ADMIN_MESSAGES, refusalOf } from './api';

/**
 * When the server refuses the panel (spec §6, §8 Admin): a 401 sends the visitor to /sign-in
 * with 'Authentication required' above the form, and signing in comes back here. A 403 ('Admin
 * access required': signed in, not an admin) stays, for the page to say so (AdminRefused): sent
 * to the sign-in form, a signed-in person would believe they had been signed out. Returns the
 * refusal either way.
 */
export function useLeaveWhenRefused(error: unknown): string | null {
  const refusal = refusalOf(error);
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const from = `${pathname}${search}${hash}`;
  useEffect(() => {
    if (refusal !== ADMIN_MESSAGES.authRequired) return;
    const state: SignInState = { from, notice: refusal };
    void navigate('/sign-in', { replace: true, state });
  }, [refusal, from, navigate]);
  return refusal;
}
