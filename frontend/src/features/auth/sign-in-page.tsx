import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { ApiError, NetworkError } from '../../lib/http';
import { storeToken } from '../../lib/token-storage';
import { sessionQueries } from '../../lib/session';
import { googleSignInUrl, signIn } from './api';
import { AuthLayout } from './components/auth-layout';
import { OtherWaysIn, useGuestMode } from './components/other-ways-in';
import { PasswordInput } from './components/password-input';
import { hasErrors, validateSignIn, type SignInValues } from './validation';

export const SIGN_IN_MESSAGES = {
  loginFailed: 'Login failed',
  noToken: 'Login failed: No access token received',
  storageFailed: 'Login successful but token storage failed. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  guest: 'Guest login error. Please try again.',
  verified: 'Your email has been verified. You can now sign in.',
  verifyFailed: 'This verification link is invalid or has expired.',
  googleFailed: 'Google sign-in failed. Please try again.',
} as const;

/** Delay between a successful sign-in and the move to /home (spec §9). */
export const SIGN_IN_REDIRECT_MS = 100;

type Banner = { tone: 'success' | 'error'; text: string };

/** What the address says on arrival: back from the e-mailed link, or from a failed Google try. */
function bannerFromAddress(hash: string, search: string): Banner | null {
  const hashParams = new URLSearchParams(hash.replace(/^#/, ''));
  const verified = hashParams.get('verified');
  if (verified === 'true') return { tone: 'success', text: SIGN_IN_MESSAGES.verified };
  if (verified === 'false') return { tone: 'error', text: SIGN_IN_MESSAGES.verifyFailed };
  if (new URLSearchParams(search).get('error') === 'google') {
    return { tone: 'error', text: SIGN_IN_MESSAGES.googleFailed };
  }
  return null;
}

export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  const [banner, setBanner] = useState(() => bannerFromAddress(location.hash, location.search));
  const [values, setValues] = useState<SignInValues>({ email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof SignInValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<ReactNode>(null);
  const [pending, setPending] = useState(false);
  const guest = useGuestMode(setFormError, SIGN_IN_MESSAGES.guest);
  const redirectTimer = useRef<number | undefined>(undefined);

  // The banner is read; the address goes back to plain /sign-in (spec §2 Sign-in page).
  useEffect(() => {
    if (bannerFromAddress(location.hash, location.search)) {
      void navigate('/sign-in', { replace: true });
    }
  }, [location.hash, location.search, navigate]);

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
    setPending(true);
    const email = values.email.trim();
    try {
      const response = await signIn(email, values.password);
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
      await queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
      redirectTimer.current = window.setTimeout(
        () => void navigate('/home', { replace: true }),
        SIGN_IN_REDIRECT_MS,
      );
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError) {
        const text = error.serverMessage ?? SIGN_IN_MESSAGES.loginFailed;
        setFormError(
          error.status === 403 ? (
            <>
              {text}{' '}
              <Link to={`/verify?email=${encodeURIComponent(email)}`}>Resend the verification email</Link>
            </>
          ) : (
            text
          ),
        );
      } else if (error instanceof NetworkError) {
        setFormError(SIGN_IN_MESSAGES.network);
      } else {
        setFormError(SIGN_IN_MESSAGES.loginFailed);
      }
    }
  }

  const busy = pending || guest.pending;

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
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {pending ? <Spinner size="sm" label="" /> : null}
          {pending ? 'Signing In...' : 'Sign In'}
        </button>
      </form>

      <OtherWaysIn googleLabel="Continue with Google" googleHref={googleSignInUrl} guest={guest} disabled={busy} />
    </AuthLayout>
  );
}
