import { Link, useLocation } from 'react-router';
import { PageSpinner } from '../../components/spinner';
import { StatusPage } from '../../components/status-page';
import type { SignInState } from '../../lib/session';
import { ADMIN_MESSAGES } from './api';

/**
 * What a signed-in person who is not an admin meets on /admin (spec §6, §8 Admin: 'Admin access
 * required'): a page that says so, with a way home and, for someone who has an admin account
 * too, a way to sign in with it. They are not sent to the sign-in form, which would look as if
 * they had been signed out.
 */
export function AdminAccessRequired() {
  const { pathname, search, hash } = useLocation();
  const state: SignInState = {
    from: `${pathname}${search}${hash}`,
    notice: ADMIN_MESSAGES.adminRequired,
    anotherAccount: true,
  };
  return (
    <StatusPage
      code="403"
      title={ADMIN_MESSAGES.adminRequired}
      text="The admin panel is for SelfSound's admins, and the account you are signed in with is not one."
      actions={
        <Link to="/sign-in" state={state} className="btn btn-secondary">
          Sign in as an admin
        </Link>
      }
    />
  );
}

/**
 * A page of the panel the server refused: 'Admin access required' (403) stays here as
 * [`AdminAccessRequired`]; 'Authentication required' (401) shows while it leaves for sign-in
 * (useLeaveWhenRefused).
 */
export function AdminRefused({ refusal }: { refusal: string }) {
  if (refusal === ADMIN_MESSAGES.adminRequired) return <AdminAccessRequired />;
  return <PageSpinner label={refusal} />;
}
