import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { ApiError, NetworkError } from '../../lib/http';
import { storeToken } from '../../lib/token-storage';
import {
  clearFarewell,
  peekFarewell,
  readSignInState,
  safeReturnPath,
  sessionQueries,
  type SignInState,
} from '../../lib/session';
import { googleSignInUrl, signIn, type SignInResponse } from './api';
import { PasskeyCancelled, passkeysSupported } from '../../lib/passkey';
import { signInWithPasskey } from './passkey';
import { AuthLayout } from './components/auth-layout';
import { OtherWaysIn, useGuestMode } from './components/other-ways-in';
import { PasswordInput } from '../../components/password-input';
import { SECOND_FACTOR_REQUIRED, TwoFactorStep } from './two-factor-step';
import { hasErrors, validateSignIn, type SignInValues } from './validation';
import styles from './sign-in-page.module.css';

export const SIGN_IN_MESSAGES = {
  loginFailed: 'Login failed',
  noToken: 'Login failed: No access token received',
  storageFailed: 'Login successful but token storage failed. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  guest: 'Guest login error. Please try again.',
  verified: 'Your email has been verified. You can now sign in.',
  verifyFailed: 'This verification link is invalid or has expired.',
  googleFailed: 'Google sign-in failed. Please try again.',
  /** The server's 403 for an account an admin suspended (password and Google sign-in alike). */
  suspended: 'This account is suspended',
  passkeyCancelled: 'Signing in with a passkey was cancelled. Try again, or use your password.',
} as const;

/** Delay between a successful sign-in and the move to /home (spec §9). */
export const SIGN_IN_REDIRECT_MS = 100;

type Banner = { tone: 'success' | 'error' | 'info' | 'warning'; text: string };

/** What the address says on arrival: back from the e-mailed link, or from a failed Google try. */
function bannerFromAddress(hash: string, search: string): Banner | null {
  const hashParams = new URLSearchParams(hash.replace(/^#/, ''));
  const verified = hashParams.get('verified');
  if (verified === 'true') return { tone: 'success', text: SIGN_IN_MESSAGES.verified };
  if (verified === 'false') return { tone: 'error', text: SIGN_IN_MESSAGES.verifyFailed };
  const error = new URLSearchParams(search).get('error');
  if (error === 'google') return { tone: 'error', text: SIGN_IN_MESSAGES.googleFailed };
  if (error === 'suspended') return { tone: 'error', text: SIGN_IN_MESSAGES.suspended };
  return null;
}

/**
 * Where a successful sign-in goes: back where the visitor was sent from (router state, or a
 * `?next=` that Google sign-in carried through), else /home (spec §4). Only app paths count.
 */
function returnPathOf(state: unknown, search: string): string | null {
  return readSignInState(state).from ?? safeReturnPath(new URLSearchParams(search).get('next'));
}

/** SignInState.anotherAccount, read defensively (router state may come from anywhere). */
function wantsAnotherAccount(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as SignInState).anotherAccount === true;
}

export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const me = useQuery(sessionQueries.me());

  // Kept in state: the address is cleaned up below, the return path and notice must survive that.
  const [returnTo] = useState(() => returnPathOf(location.state, location.search));
  // Sent here because this account may not see a page (admin panel): stay, to switch accounts.
  const [anotherAccount] = useState(() => wantsAnotherAccount(location.state));
  // This tab's own farewell (the account deleted) before the router's notice: a request that
  // was under way when the session ended answers 401 after, and the guard's "Session expired"
  // may be the navigation that lands last.
  const [banner, setBanner] = useState<Banner | null>(
    () =>
      bannerFromAddress(location.hash, location.search) ?? peekFarewell() ?? readSignInState(location.state).notice,
  );
  // Said once: a later visit to this page does not repeat it.
  useEffect(() => clearFarewell(), []);
  const [signedInHere, setSignedInHere] = useState(false);
  const [values, setValues] = useState<SignInValues>({ email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof SignInValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<ReactNode>(null);
  const [pending, setPending] = useState(false);
  // After a right password on an account with two-factor sign-in: its code, then the same call.
  const [codeStep, setCodeStep] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  // Which way the pending sign-in went: the passkey button shows its own spinner.
  const [viaPasskey, setViaPasskey] = useState(false);
  const guest = useGuestMode(setFormError, SIGN_IN_MESSAGES.guest);
  const redirectTimer = useRef<number | undefined>(undefined);

  // The banner is read; the address goes back to plain /sign-in (spec §2 Sign-in page), still
  // knowing where to return.
  useEffect(() => {
    if (bannerFromAddress(location.hash, location.search)) {
      const state: SignInState | null = returnTo ? { from: returnTo } : null;
      void navigate('/sign-in', { replace: true, state });
    }
  }, [location.hash, location.search, navigate, returnTo]);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const errors = validateSignIn(values);
  const shown = (field: keyof SignInValues) =>
    submitted || touched[field] ? errors[field] : undefined;

  const update = (field: keyof SignInValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (hasErrors(errors) || pending) return;
    await attempt();
  }

  /** Keeps the token of a sign-in and moves on (or says why not). */
  async function signedIn(response: SignInResponse) {
    const token = response?.access_token;
    if (!token) {
      setFormError(SIGN_IN_MESSAGES.noToken);
      setPending(false);
      return;
    }
    if (!storeToken(token)) {
      setFormError(SIGN_IN_MESSAGES.storageFailed);
      setPending(false);
      return;
    }
    setSignedInHere(true);
    await queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
    redirectTimer.current = window.setTimeout(
      () => void navigate(returnTo ?? '/home', { replace: true }),
      SIGN_IN_REDIRECT_MS,
    );
  }

  /** Signs in with a passkey: no address, password or code (the passkey stands in for both). */
  async function withPasskey() {
    setPending(true);
    setViaPasskey(true);
    setFormError(null);
    setCodeError(null);
    try {
      await signedIn(await signInWithPasskey());
    } catch (error) {
      setPending(false);
      if (error instanceof PasskeyCancelled) setFormError(SIGN_IN_MESSAGES.passkeyCancelled);
      else if (error instanceof ApiError) setFormError(error.serverMessage ?? SIGN_IN_MESSAGES.loginFailed);
      else if (error instanceof NetworkError) setFormError(SIGN_IN_MESSAGES.network);
      else setFormError(SIGN_IN_MESSAGES.loginFailed);
    }
  }

  /** Sends the e-mail and password (with the code of the second step, if there is one). */
  async function attempt(code?: string) {
    setPending(true);
    setViaPasskey(false);
    setCodeError(null);
    const email = values.email.trim();
    try {
      await signedIn(await signIn(email, values.password, code));
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError) {
        const text = error.serverMessage ?? SIGN_IN_MESSAGES.loginFailed;
        if (error.status === 401 && text === SECOND_FACTOR_REQUIRED) {
          setCodeStep(true);
        } else if (error.status === 401 && code !== undefined) {
          // The code was wrong (the password was right a moment ago).
          setCodeError(text);
        } else if (error.status === 403 && text !== SIGN_IN_MESSAGES.suspended) {
          // A 403 is an address not verified yet (with a way to verify it) or a suspended account.
          setFormError(
            <>
              {text}{' '}
              <Link to={`/verify?email=${encodeURIComponent(email)}`}>Resend the verification email</Link>
            </>,
          );
        } else {
          setFormError(text);
        }
      } else if (error instanceof NetworkError) {
        setFormError(SIGN_IN_MESSAGES.network);
      } else {
        setFormError(SIGN_IN_MESSAGES.loginFailed);
      }
    }
  }

  const busy = pending || guest.pending;
  const passkeys = passkeysSupported();

  // Someone already signed in has nothing to do here (unless they just did it on this page,
  // which moves on by itself after SIGN_IN_REDIRECT_MS, or came to sign in as someone else).
  if (me.data && !signedInHere && !anotherAccount) {
    return <Navigate to={returnTo ?? '/home'} replace />;
  }

  return (
    <AuthLayout
      title="Welcome back"
      pageTitle="Sign in"
      subtitle="Sign in to share your music and hear what others are making."
      footer={
        <>
          Don&apos;t have an account? <Link to="/sign-up">Sign up</Link>
        </>
      }
    >
      {banner ? (
        <Alert tone={banner.tone} onDismiss={() => setBanner(null)}>
          {banner.text}
        </Alert>
      ) : null}
      {formError ? <Alert tone="error">{formError}</Alert> : null}

      {codeStep ? (
        <TwoFactorStep
          email={values.email.trim()}
          pending={pending}
          error={codeError}
          onSubmit={(code) => void attempt(code)}
          onPasskey={passkeys ? () => void withPasskey() : undefined}
          onBack={() => {
            setCodeStep(false);
            setCodeError(null);
            setFormError(null);
          }}
        />
      ) : (
        <>
        <form noValidate onSubmit={onSubmit} className="form-stack" aria-label="Sign in">
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={values.email}
            onChange={update('email')}
            onBlur={() => setTouched((t) => ({ ...t, email: true }))}
            error={shown('email')}
            disabled={busy}
          />
          <TextField
            label="Password"
            name="password"
            autoComplete="current-password"
            placeholder="Your password"
            value={values.password}
            onChange={update('password')}
            onBlur={() => setTouched((t) => ({ ...t, password: true }))}
            error={shown('password')}
            disabled={busy}
            renderInput={(props) => <PasswordInput {...props} />}
          />
          {/* After the password, not beside its label: Tab goes e-mail, password, then this. */}
          <p className={styles.forgotRow}>
            <Link to="/forgot-password" state={{ email: values.email.trim() }} className={styles.forgot}>
              Forgot password?
            </Link>
          </p>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {pending ? <Spinner size="sm" label="" /> : null}
            {pending ? 'Signing In...' : 'Sign In'}
          </button>
        </form>

        <OtherWaysIn
          googleLabel="Continue with Google"
          googleHref={() => googleSignInUrl(returnTo)}
          guest={guest}
          disabled={busy}
          passkey={passkeys ? { onClick: () => void withPasskey(), pending: pending && viaPasskey } : undefined}
        />
        </>
      )}
    </AuthLayout>
  );
}
