import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { PasswordInput } from '../../components/password-input';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/http';
import { useViewer } from '../../lib/session';
import {
  twoFactorQueries,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRenewRecoveryCodes,
  useStartTwoFactor,
  type TwoFactorSetup,
} from './two-factor-api';
import styles from './two-factor-section.module.css';

export const TWO_FACTOR_MESSAGES = {
  intro: 'Ask for a code from an authenticator app on your phone each time you sign in with your password.',
  loadFailed: 'Could not load your two-factor settings. Please try again.',
  passwordRequired: 'Enter your password',
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  anyCodeRequired: 'Enter a code from your app, or a recovery code',
  network: 'Network error. Please check your connection and try again.',
  turnedOn: 'Two-factor sign-in is on',
  turnedOff: 'Two-factor sign-in is off',
  renewed: 'New recovery codes made. The old ones no longer work.',
  copied: 'Copied',
  codesLeft: (n: number) => (n === 1 ? '1 recovery code left' : `${n} recovery codes left`),
} as const;

/** What the section is doing: at rest, or one of the steps of a change. */
type Step =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[]; fresh: boolean }
  | { kind: 'confirm'; action: 'renew' | 'disable' };

function detailOf(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? `HTTP ${error.status}`;
  return TWO_FACTOR_MESSAGES.network;
}

/** A refusal shown under the step's field (a 401 ended the session: the route guard takes over). */
function shownIn(setError: (text: string) => void) {
  return (e: Error) => {
    if (e instanceof ApiError && e.sessionExpired) return;
    setError(detailOf(e));
  };
}

/** The key as authenticator apps show it when typed in: groups of four. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function copy(text: string, done: () => void) {
  void navigator.clipboard?.writeText(text).then(done, () => undefined);
}

function download(codes: string[]) {
  const text = `SelfSound recovery codes\n\nEach code signs you in once in place of your authenticator app's code.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'selfsound-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * Settings → Two-factor sign-in (issue 36): set up with the password again, a QR code (or the key
 * typed in) and a first code; the ten recovery codes shown once; new codes or turning it off,
 * each for a code of the app or a recovery code.
 */
export function TwoFactorSection() {
  const viewer = useViewer();
  const status = useQuery({ ...twoFactorQueries.status(viewer?.id), enabled: viewer != null });
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const enabled = status.data?.enabled === true;

  return (
    <section className={styles.section} aria-labelledby="two-factor-title">
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h2 id="two-factor-title">Two-factor sign-in</h2>
          {status.data ? (
            <span className={enabled ? styles.on : styles.off}>{enabled ? 'On' : 'Off'}</span>
          ) : null}
        </div>
        <p>{TWO_FACTOR_MESSAGES.intro}</p>
      </header>
      {status.isPending && viewer ? <Spinner size="sm" label="Loading..." /> : null}
      {status.isError ? (
        <Alert tone="error" className={styles.alert}>
          {TWO_FACTOR_MESSAGES.loadFailed}
        </Alert>
      ) : null}
      {status.data ? (
        <Body
          step={step}
          setStep={setStep}
          enabled={enabled}
          codesLeft={status.data.recovery_codes_left}
        />
      ) : null}
    </section>
  );
}

interface BodyProps {
  step: Step;
  setStep: (step: Step) => void;
  enabled: boolean;
  codesLeft: number;
}

function Body({ step, setStep, enabled, codesLeft }: BodyProps) {
  const idle = () => setStep({ kind: 'idle' });
  switch (step.kind) {
    case 'password':
      return <PasswordStep onCancel={idle} onStarted={(setup) => setStep({ kind: 'scan', setup })} />;
    case 'scan':
      return (
        <ScanStep
          setup={step.setup}
          onCancel={idle}
          onEnabled={(codes) => setStep({ kind: 'codes', codes, fresh: true })}
        />
      );
    case 'codes':
      return <RecoveryCodes codes={step.codes} fresh={step.fresh} onDone={idle} />;
    case 'confirm':
      return (
        <ConfirmStep
          action={step.action}
          onCancel={idle}
          onRenewed={(codes) => setStep({ kind: 'codes', codes, fresh: false })}
          onDisabled={idle}
        />
      );
    case 'idle':
      return enabled ? (
        <div className={styles.row}>
          <p className={styles.left}>{TWO_FACTOR_MESSAGES.codesLeft(codesLeft)}</p>
          <div className={styles.actions}>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setStep({ kind: 'confirm', action: 'renew' })}
            >
              New recovery codes
            </button>
            <button
              type="button"
              className="btn btn-danger-outline"
              onClick={() => setStep({ kind: 'confirm', action: 'disable' })}
            >
              Turn off
            </button>
          </div>
        </div>
      ) : (
        <div className={styles.actions}>
          <button type="button" className="btn btn-primary" onClick={() => setStep({ kind: 'password' })}>
            Set up two-factor sign-in
          </button>
        </div>
      );
  }
}

/** A field of a step: what is typed, and the problem shown under it (cleared by typing). */
function useStepField() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onChange = (event: { target: { value: string } }) => {
    setValue(event.target.value);
    setError(null);
  };
  return { value, error: error ?? undefined, setError, onChange };
}

/** A step's buttons: its action (with a spinner while it is under way) and Cancel. */
function StepActions({
  label,
  pending,
  onCancel,
  danger = false,
}: {
  label: string;
  pending: boolean;
  onCancel: () => void;
  danger?: boolean;
}) {
  return (
    <div className={styles.actions}>
      <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={pending}>
        {pending ? <Spinner size="sm" label="" /> : null}
        {label}
      </button>
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
    </div>
  );
}

/** The password again, before anything changes. */
function PasswordStep({ onCancel, onStarted }: { onCancel: () => void; onStarted: (s: TwoFactorSetup) => void }) {
  const start = useStartTwoFactor();
  const password = useStepField();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (start.isPending) return;
    if (password.value === '') {
      password.setError(TWO_FACTOR_MESSAGES.passwordRequired);
      return;
    }
    start.mutate(password.value, { onSuccess: onStarted, onError: shownIn(password.setError) });
  }

  return (
    <form noValidate onSubmit={submit} className={`form-stack ${styles.form}`} aria-label="Set up two-factor sign-in">
      <TextField
        label="Your password"
        name="password"
        autoComplete="current-password"
        value={password.value}
        onChange={password.onChange}
        error={password.error}
        hint="To keep someone with your session alone from turning it on."
        disabled={start.isPending}
        autoFocus
        renderInput={(props) => <PasswordInput {...props} />}
      />
      <StepActions label="Continue" pending={start.isPending} onCancel={onCancel} />
    </form>
  );
}

/** The QR code (or the key), then a first code from the app. */
function ScanStep({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const enable = useEnableTwoFactor();
  const toast = useToast();
  const code = useStepField();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (enable.isPending) return;
    if (!/^\d{6}$/.test(code.value.replace(/\s/g, ''))) {
      code.setError(TWO_FACTOR_MESSAGES.codeRequired);
      return;
    }
    enable.mutate(code.value, {
      onSuccess: (answer) => {
        toast.show(TWO_FACTOR_MESSAGES.turnedOn);
        onEnabled(answer.recovery_codes);
      },
      onError: shownIn(code.setError),
    });
  }

  return (
    <div className={styles.setup}>
      <ol className={styles.steps}>
        <li>
          <p>
            Scan this QR code with an authenticator app, such as Google Authenticator, Microsoft Authenticator,
            1Password, Aegis or Authy.
          </p>
          <img
            className={styles.qr}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
            alt="QR code to add SelfSound to your authenticator app"
            width={200}
            height={200}
          />
          <p className={styles.keyLine}>
            Can&apos;t scan it? Enter this key in the app:
            <code className={styles.key} data-testid="two-factor-key">
              {grouped(setup.secret)}
            </code>{' '}
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => copy(setup.secret, () => toast.show(TWO_FACTOR_MESSAGES.copied))}
            >
              Copy key
            </button>
          </p>
        </li>
        <li>
          <form noValidate onSubmit={submit} className={`form-stack ${styles.form}`} aria-label="Turn on two-factor sign-in">
            <TextField
              label="Enter the 6-digit code the app shows"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={9}
              placeholder="123456"
              className={styles.codeInput}
              value={code.value}
              onChange={code.onChange}
              error={code.error}
              disabled={enable.isPending}
            />
            <StepActions label="Turn on" pending={enable.isPending} onCancel={onCancel} />
          </form>
        </li>
      </ol>
    </div>
  );
}

/** The recovery codes, shown this once. */
function RecoveryCodes({ codes, fresh, onDone }: { codes: string[]; fresh: boolean; onDone: () => void }) {
  const toast = useToast();
  return (
    <div className={styles.codes}>
      <Alert tone={fresh ? 'success' : 'info'}>
        {fresh ? `${TWO_FACTOR_MESSAGES.turnedOn}. ` : `${TWO_FACTOR_MESSAGES.renewed} `}
        Save these recovery codes somewhere safe: each one signs you in once if you lose your phone. They are not
        shown again.
      </Alert>
      <ul className={styles.codeList} aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className={styles.actions}>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => copy(codes.join('\n'), () => toast.show(TWO_FACTOR_MESSAGES.copied))}
        >
          Copy codes
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => download(codes)}>
          Download
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

/** A code (of the app, or a recovery code) before new recovery codes or turning it off. */
function ConfirmStep({
  action,
  onCancel,
  onRenewed,
  onDisabled,
}: {
  action: 'renew' | 'disable';
  onCancel: () => void;
  onRenewed: (codes: string[]) => void;
  onDisabled: () => void;
}) {
  const renew = useRenewRecoveryCodes();
  const disable = useDisableTwoFactor();
  const toast = useToast();
  const code = useStepField();
  const pending = renew.isPending || disable.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const typed = code.value.trim();
    if (typed === '') {
      code.setError(TWO_FACTOR_MESSAGES.anyCodeRequired);
      return;
    }
    const onError = shownIn(code.setError);
    if (action === 'renew') {
      renew.mutate(typed, { onSuccess: (answer) => onRenewed(answer.recovery_codes), onError });
    } else {
      disable.mutate(typed, {
        onSuccess: () => {
          toast.show(TWO_FACTOR_MESSAGES.turnedOff);
          onDisabled();
        },
        onError,
      });
    }
  }

  const label = action === 'renew' ? 'Make new codes' : 'Turn off';
  return (
    <form
      noValidate
      onSubmit={submit}
      className={`form-stack ${styles.form}`}
      aria-label={action === 'renew' ? 'New recovery codes' : 'Turn off two-factor sign-in'}
    >
      <TextField
        label="Code from your app, or a recovery code"
        name="code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={20}
        className={styles.codeInput}
        value={code.value}
        onChange={code.onChange}
        error={code.error}
        hint={action === 'renew' ? 'Your old recovery codes stop working.' : 'Signing in will ask for your password only.'}
        disabled={pending}
        autoFocus
      />
      <StepActions label={label} pending={pending} onCancel={onCancel} danger={action === 'disable'} />
    </form>
  );
}
