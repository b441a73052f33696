import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { LockIcon } from '../../components/icons';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Spinner } from '../../components/spinner';
import { ApiError } from '../../lib/http';
import { confirmationError, isPasswordRuleDetail, newPasswordError } from '../../lib/password-rules';
import { afterPasswordReset, confirmPasswordReset } from './api';
import { AuthLayout } from './components/auth-layout';

export const RESET_PASSWORD_MESSAGES = {
  invalidLink: 'This password reset link is invalid or has expired.',
  checkPassword: 'Please check your password requirements.',
  failed: 'Could not set the new password. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  doneElsewhere: 'Your password was changed. Sign in with your new password on the account you reset.',
} as const;

/** The reset token of the e-mailed link `/reset-password#token=…` (in the hash: never sent to a server). */
export function tokenFromHash(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') || null;
}

type Field = 'password' | 'confirmation';

/**
 * Reset password (issue 7), reached from the e-mailed link. The token is read from the address
 * once, kept in memory only and removed from the address at once, so it stays out of the
 * history, bookmarks and screenshots. On success every session of the account
 * is over, and the sign-in page says so.
 */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [token] = useState(() => tokenFromHash(location.hash));
  const [linkInvalid, setLinkInvalid] = useState(token === null);
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirmation: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [doneHere, setDoneHere] = useState(false);

  // Right after the first render (the router listens to the address only from then on).
  useEffect(() => {
    if (location.hash || location.search) void navigate('/reset-password', { replace: true });
  }, [location.hash, location.search, navigate]);

  const errors: Partial<Record<Field, string>> = {
    password: newPasswordError(values.password),
    confirmation: confirmationError(values.password, values.confirmation),
  };
  const shown = (field: Field) => (submitted || touched[field] ? errors[field] : undefined);

  const update = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (field === 'password') setServerError(undefined);
  };
  const touch = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    setServerError(undefined);
    if (errors.password || errors.confirmation || saving || !token) return;
    setSaving(true);
    try {
      await confirmPasswordReset(token, values.password);
      if (await afterPasswordReset(queryClient)) {
        void navigate('/sign-in', { replace: true });
        return;
      }
      setDoneHere(true);
    } catch (error) {
      if (error instanceof ApiError) {
        const detail = error.serverMessage ?? '';
        if (error.status === 400 && isPasswordRuleDetail(detail)) {
          setServerError(detail);
          setFormError(RESET_PASSWORD_MESSAGES.checkPassword);
        } else if (error.status === 400 && /invalid or has expired/i.test(detail)) {
          setLinkInvalid(true);
        } else {
          setFormError(detail || RESET_PASSWORD_MESSAGES.failed);
        }
      } else {
        setFormError(RESET_PASSWORD_MESSAGES.network);
      }
    }
    setSaving(false);
  }

  if (linkInvalid) {
    return (
      <AuthLayout
        title="Set a new password"
        pageTitle="Reset password"
        badge={<LockIcon size={28} />}
        footer={<Link to="/sign-in">Back to Sign In</Link>}
      >
        <Alert tone="error">{RESET_PASSWORD_MESSAGES.invalidLink}</Alert>
        <Link to="/forgot-password" className="btn btn-primary btn-block">
          Request a new link
        </Link>
      </AuthLayout>
    );
  }

  if (doneHere) {
    return (
      <AuthLayout title="Password changed" pageTitle="Reset password" badge={<LockIcon size={28} />}>
        <Alert tone="success">{RESET_PASSWORD_MESSAGES.doneElsewhere}</Alert>
        <Link to="/home" className="btn btn-primary btn-block">
          Go to home
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Set a new password"
      pageTitle="Reset password"
      badge={<LockIcon size={28} />}
      subtitle="Choose a new password for your account. You will be signed out on every device."
      footer={<Link to="/sign-in">Back to Sign In</Link>}
    >
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <form noValidate onSubmit={onSubmit} className="form-stack" aria-label="Reset password">
        <NewPasswordFields
          password={values.password}
          confirmation={values.confirmation}
          onPasswordChange={update('password')}
          onConfirmationChange={update('confirmation')}
          onPasswordBlur={touch('password')}
          onConfirmationBlur={touch('confirmation')}
          passwordError={shown('password') ?? serverError}
          confirmationError={shown('confirmation')}
          disabled={saving}
          passwordPlaceholder="Create a password"
          confirmationPlaceholder="Repeat the new password"
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={saving}>
          {saving ? <Spinner size="sm" label="" /> : null}
          {saving ? 'Saving...' : 'Set new password'}
        </button>
      </form>
    </AuthLayout>
  );
}
