import { BASE_PATH } from '../lib/config';
import { safeReturnPath } from '../lib/session';
import { captureTokenFromUrl } from '../lib/token-storage';

/**
 * Runs once before the app renders (spec §2): a token in the page address is stored and
 * removed from it. Google sign-in returns to the sign-in page with `?token=`; that visitor is
 * now signed in, so the address becomes /home (spec §4: a successful sign-in goes to /home), or
 * the app page a `?next=` names (where they were when sent to sign in).
 */
export function consumeTokenFromAddress(): void {
  const token = captureTokenFromUrl();
  if (!token) return;
  const signInPath = `${BASE_PATH}/sign-in`;
  if (window.location.pathname.replace(/\/+$/, '') === signInPath) {
    const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
    window.history.replaceState(window.history.state, '', `${BASE_PATH}${next ?? '/home'}`);
  }
}
