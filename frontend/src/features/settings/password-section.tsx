import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/alert';
import { NewPasswordFields } from '../../components/new-password-fields';
import { PasswordInput } from '../../components/password-input';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/http';
import { confirmationError, isPasswordRuleDetail, newPasswordError } from '../../lib/password-rules';
import { useViewer } from '../../lib/session';
import { useChangePassword } from '../auth';
import styles from './password-section.module.css';

export const PASSWORD_MESSAGES = {
  changed: 'Password changed. Your other devices were signed out.',
  currentRequired: 'Current password is required',
  failed: 'Failed to change password. Please try again.',
  network: 'Network error. Please check your connection and try again.',
} as const;

type Field = 'current' | 'password' | 'confirmation';
type Values = Record<Field, string>;

const EMPTY: Values = { current: '', password: '', confirmation: '' };

function validate(values: Values): Partial<Record<Field, string>> {
  return {
    current: values.current === '' ? PASSWORD_MESSAGES.currentRequired : undefined,
    password: newPasswordError(values.password),
    confirmation: confirmationError(values.password, values.confirmation),
  };
}

/** Where a refused change is shown: under a field, or above the form. */
type Failure = { field: Field; text: string } | { field?: undefined; text: ReactNode };

function describeFailure(error: Error, email: string | null | undefined): Failure {
  if (!(error instanceof ApiError)) return { text: PASSWORD_MESSAGES.network };
  const detail = error.serverMessage ?? '';
  if (error.status === 400 && /current password/i.test(detail)) return { field: 'current', text: detail };
  if (error.status === 400 && isPasswordRuleDetail(detail)) return { field: 'password', text: detail };
  if (error.status === 400 && /no password yet/i.test(detail)) {
    // An account made with Google has no password to give: the e-mailed link sets one.
    return {
      text: (
        <>
          {detail}{' '}
          <Link to="/forgot-password" state={{ email }}>
            Set a password by e-mail
          </Link>
        </>
      ),
    };
  }
  return { text: detail || PASSWORD_MESSAGES.failed };
}

/**
 * Settings → Password (issue 7): the current password, a new one with the sign-up checklist and
 * strength meter, and its confirmation. On success every other device is signed out; this one
 * stays signed in.
 */
export function PasswordSection() {
  const viewer = useViewer();
  const toast = useToast();
  const change = useChangePassword();
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<ReactNode>(null);

  const errors = validate(values);
  const shown = (field: Field) => (submitted || touched[field] ? errors[field] : undefined) ?? serverErrors[field];

  const update = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  };
  const touch = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    setServerErrors({});
    if (errors.current || errors.password || errors.confirmation || change.isPending) return;
    change.mutate(
      { currentPassword: values.current, newPassword: values.password },
      {
        onSuccess: () => {
          setValues(EMPTY);
          setTouched({});
          setSubmitted(false);
          toast.show(PASSWORD_MESSAGES.changed);
        },
        onError: (error) => {
          // A 401 ended the session: the route guard is already on its way to /sign-in.
          if (error instanceof ApiError && error.sessionExpired) return;
          const failure = describeFailure(error, viewer?.email);
          if (failure.field) setServerErrors({ [failure.field]: failure.text });
          else setFormError(failure.text);
        },
      },
    );
  }

  const busy = change.isPending;

  return (
    <section className={styles.section} aria-labelledby="password-title">
      <header className={styles.header}>
        <h2 id="password-title">Password</h2>
        <p>Change the password you sign in with. Your other devices will be signed out; this one stays.</p>
      </header>
      {formError ? (
        <Alert tone="error" onDismiss={() => setFormError(null)} className={styles.alert}>
          {formError}
        </Alert>
      ) : null}
      <form noValidate onSubmit={onSubmit} className={`form-stack ${styles.form}`} aria-label="Change password">
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={viewer?.email ?? ''} readOnly hidden />
        <TextField
          label="Current password"
          name="current-password"
          autoComplete="current-password"
          value={values.current}
          onChange={update('current')}
          onBlur={touch('current')}
          error={shown('current')}
          disabled={busy}
          renderInput={(props) => <PasswordInput {...props} />}
        />
        <NewPasswordFields
          password={values.password}
          confirmation={values.confirmation}
          onPasswordChange={update('password')}
          onConfirmationChange={update('confirmation')}
          onPasswordBlur={touch('password')}
          onConfirmationBlur={touch('confirmation')}
          passwordError={shown('password')}
          confirmationError={shown('confirmation')}
          disabled={busy}
        />
        <div className={styles.actions}>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? <Spinner size="sm" label="" /> : null}
            {busy ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
