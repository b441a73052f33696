import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { REASON_MAX, SUSPENSION_WORDS } from '../suspensions-api';
import styles from './suspend-dialog.module.css';

interface SuspendDialogProps {
  /** Whom: "@ana". */
  login: string;
  busy: boolean;
  /** Why the last try failed (the server's words), if it did. */
  failure: string | null;
  onSuspend: (reason: string) => void;
  onCancel: () => void;
}

/**
 * Asks for the reason of a suspension (1 to 500 characters, the server's rule), then suspends:
 * the person is signed out everywhere and what they wrote is hidden until the suspension is
 * lifted. A blank reason is said here, before anything is sent.
 */
export function SuspendDialog({ login, busy, failure, onSuspend, onCancel }: SuspendDialogProps) {
  const reasonId = useId();
  const hintId = useId();
  const [reason, setReason] = useState('');
  const [blank, setBlank] = useState(false);
  const left = REASON_MAX - reason.length;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (reason.trim() === '') {
      setBlank(true);
      return;
    }
    onSuspend(reason.trim());
  }

  return (
    <Modal
      open
      title={`Suspend @${login}?`}
      description="They are signed out at once and cannot sign in; their posts and comments are hidden until you lift it."
      onClose={busy ? () => {} : onCancel}
    >
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={reasonId} className="field-label">
            {SUSPENSION_WORDS.reasonLabel}
          </label>
          <textarea
            id={reasonId}
            className={`input ${styles.reason}`}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setBlank(false);
            }}
            maxLength={REASON_MAX}
            rows={3}
            disabled={busy}
            aria-describedby={hintId}
            aria-invalid={blank || undefined}
            placeholder="e.g. Spam posts after a warning"
          />
          <p id={hintId} className={styles.hint}>
            <span>{SUSPENSION_WORDS.reasonHint}</span>
            <span className={left < 50 ? styles.few : undefined}>{left} left</span>
          </p>
        </div>
        {blank || failure ? <Alert tone="error">{blank ? SUSPENSION_WORDS.reasonRequired : failure}</Alert> : null}
        <div className="dialog-buttons">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? <Spinner size="sm" label="" /> : null}
            {busy ? SUSPENSION_WORDS.suspending : 'Suspend'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
