import { BASE_PATH } from '../lib/config';
import { safeReturnPath } from '../lib/session';
import { storeToken, takeHandoffMark, takeTokenFromUrl } from '../lib/token-storage';

/** The app page an address is on, without the base path or a trailing slash: '/sign-in'. */
function appPath(): string {
  const path = window.location.pathname.replace(/\/+$/, '');
  return path.startsWith(`${BASE_PATH}/`) ? path.slice(BASE_PATH.length) : path;
}

/**
 * Runs once before the app renders (spec §2): a token in the page address is removed from it,
 * and stored only on the sign-in page, where Google sign-in hands it over with `?token=`, and
 * only in a tab that set out for Google sign-in itself (`markHandoffStarted`). That
 * visitor is now signed in, so the address becomes /home (spec §4: a successful sign-in goes to
 * /home), or the app page a `?next=` names (where they were when sent to sign in).
 *
 * Anywhere else a token in the address is dropped unused: otherwise any link into the app could
 * sign the visitor in to an account of the sender's choosing (login CSRF). /reset-password is
 * left alone: its `#token=` is a password-reset token, which that page reads and removes itself.
 */
export function consumeTokenFromAddress(): void {
  const page = appPath();
  if (page === '/reset-password') return;
  const token = takeTokenFromUrl();
  if (!token || page !== '/sign-in' || !takeHandoffMark()) return;
  storeToken(token);
  const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
  window.history.replaceState(window.history.state, '', `${BASE_PATH}${next ?? '/home'}`);
}
