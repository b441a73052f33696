import { useState, type FormEvent } from 'react';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import styles from './two-factor-step.module.css';

/**
 * The 401 detail of `POST /authorization/logindefault` for a right password on an account with
 * two-factor sign-in and no `code` in the request (the server's `auth::two_factor::
 * SECOND_FACTOR_REQUIRED`; a Rust test checks the two are the same text).
 */
export const SECOND_FACTOR_REQUIRED =
  'Two-factor authentication required: enter the 6-digit code from your authenticator app.';

export const TWO_FACTOR_STEP_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  recoveryRequired: 'Enter one of your recovery codes',
  codeShape: 'The code is 6 digits',
} as const;

interface TwoFactorStepProps {
  email: string;
  pending: boolean;
  /** The server's refusal of the last code, shown under the field. */
  error: string | null;
  onSubmit: (code: string) => void;
  onBack: () => void;
  /** Signing in with a passkey instead (it stands in for the code), in a browser that can. */
  onPasskey?: () => void;
}

/**
 * Sign-in's second step (issue 36): the authenticator app's code, or a recovery code instead.
 * The password is kept by the page and sent again with the code (the spec's call, plus `code`).
 */
export function TwoFactorStep({ email, pending, error, onSubmit, onBack, onPasskey }: TwoFactorStepProps) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const typed = code.trim();
    if (typed === '') {
      setProblem(recovery ? TWO_FACTOR_STEP_MESSAGES.recoveryRequired : TWO_FACTOR_STEP_MESSAGES.codeRequired);
      return;
    }
    if (!recovery && !/^\d{6}$/.test(typed.replace(/\s/g, ''))) {
      setProblem(TWO_FACTOR_STEP_MESSAGES.codeShape);
      return;
    }
    setProblem(null);
    onSubmit(typed);
  }

  function switchKind() {
    setRecovery((r) => !r);
    setCode('');
    setProblem(null);
  }

  return (
    <form noValidate onSubmit={submit} className="form-stack" aria-label="Two-factor authentication">
      <div className={styles.intro}>
        <h2 className={styles.title}>Two-factor authentication</h2>
        <p>
          {recovery
            ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
            : 'Open your authenticator app and enter the code it shows for SelfSound.'}{' '}
          <span className={styles.account}>{email}</span>
        </p>
      </div>
      <TextField
        key={recovery ? 'recovery' : 'app'}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        name="code"
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize="none"
        spellCheck={false}
        maxLength={recovery ? 20 : 9}
        placeholder={recovery ? 'xxxx-xxxx-xxxx' : '123456'}
        className={styles.code}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setProblem(null);
        }}
        error={problem ?? error ?? undefined}
        disabled={pending}
        autoFocus
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? <Spinner size="sm" label="" /> : null}
        {pending ? 'Verifying...' : 'Verify'}
      </button>
      <div className={styles.links}>
        <button type="button" className={styles.link} onClick={switchKind} disabled={pending}>
          {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
        </button>
        {onPasskey ? (
          <button type="button" className={styles.link} onClick={onPasskey} disabled={pending}>
            Use a passkey
          </button>
        ) : null}
        <button type="button" className={styles.link} onClick={onBack} disabled={pending}>
          Back
        </button>
      </div>
    </form>
  );
}
