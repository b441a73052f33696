import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { googleSignUpUrl, signUp } from './api';
import { AuthLayout } from './components/auth-layout';
import { OtherWaysIn, useGuestMode } from './components/other-ways-in';
import { PasswordChecklist } from '../../components/password-checklist';
import { PasswordInput } from '../../components/password-input';
import { SIGN_UP_MESSAGES, describeSignUpError, type SignUpField } from './sign-up-errors';
import {
  NAME_MAX_LENGTH,
  hasErrors,
  truncateName,
  validateSignUp,
  type FieldErrors,
  type SignUpValues,
} from './validation';

/** Delay between the success message and the move to /verify (spec §9). */
export const SIGN_UP_REDIRECT_MS = 2000;

export function SignUpPage() {
  const navigate = useNavigate();

  const [values, setValues] = useState<SignUpValues>({ name: '', email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<SignUpField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors<SignUpField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const guest = useGuestMode(setFormError, SIGN_UP_MESSAGES.guest);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const errors = validateSignUp(values);
  const shown = (field: SignUpField) =>
    (submitted || touched[field] ? errors[field] : undefined) ?? serverErrors[field];

  const update = (field: SignUpField) => (event: { target: { value: string } }) => {
    const value = field === 'name' ? truncateName(event.target.value) : event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    // The server's word on a field no longer applies once the field changes.
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  };
  const touch = (field: SignUpField) => () => setTouched((t) => ({ ...t, [field]: true }));

  function continueToVerify(email: string, message: string) {
    setPending(false);
    setNotice(message);
    redirectTimer.current = window.setTimeout(
      () => void navigate(`/verify?email=${encodeURIComponent(email)}`),
      SIGN_UP_REDIRECT_MS,
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    setServerErrors({});
    if (hasErrors(errors) || pending || notice) return;
    setPending(true);
    const email = values.email.trim();
    try {
      const response = await signUp({ email, password: values.password, name: values.name.trim() });
      continueToVerify(response?.email ?? email, response?.message ?? SIGN_UP_MESSAGES.success);
    } catch (error) {
      const failure = describeSignUpError(error);
      if (failure.notice) {
        continueToVerify(email, failure.notice);
        return;
      }
      setPending(false);
      setServerErrors(failure.fieldErrors);
      setFormError(failure.formError ?? null);
    }
  }

  const done = notice !== null;
  const busy = pending || guest.pending || done;
  const nameLength = [...values.name].length;

  return (
    <AuthLayout
      title="Create your account"
      pageTitle="Sign up"
      subtitle="Join artists, learners and listeners sharing their music."
      footer={
        <>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </>
      }
    >
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {formError ? <Alert tone="error">{formError}</Alert> : null}

      <form noValidate onSubmit={onSubmit} className="form-stack" aria-label="Sign up">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          placeholder="Your display name"
          value={values.name}
          onChange={update('name')}
          onBlur={touch('name')}
          error={shown('name')}
          disabled={busy}
          aside={
            <span className="field-hint" aria-hidden="true">
              {nameLength}/{NAME_MAX_LENGTH}
            </span>
          }
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          value={values.email}
          onChange={update('email')}
          onBlur={touch('email')}
          error={shown('email')}
          disabled={busy}
        />
        <TextField
          label="Password"
          name="password"
          autoComplete="new-password"
          placeholder="Create a password"
          value={values.password}
          onChange={update('password')}
          onBlur={touch('password')}
          error={shown('password')}
          disabled={busy}
          hint={<PasswordChecklist password={values.password} />}
          renderInput={(props) => <PasswordInput {...props} />}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {pending ? <Spinner size="sm" label="" /> : null}
          {pending ? 'Creating account...' : 'Sign up'}
        </button>
      </form>

      <OtherWaysIn googleLabel="Sign up with Google" googleHref={googleSignUpUrl} guest={guest} disabled={busy} />
    </AuthLayout>
  );
}
