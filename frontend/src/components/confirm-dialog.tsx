import { Modal } from './modal';
import { Spinner } from './spinner';
import styles from './confirm-dialog.module.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question, read out with the title (e.g. spec §5's delete-account prompt). */
  message: string;
  confirmLabel: string;
  /** The confirm button's words while `busy`. */
  busyLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before something that is hard to take back (blocking, deleting the account), in the
 * page rather than in a browser dialog: Cancel, or a red confirm button.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal open={open} onClose={busy ? () => {} : onCancel} title={title} description={message}>
      <div className={`dialog-buttons ${styles.buttons}`}>
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
          {busy ? <Spinner size="sm" label="" /> : null}
          {busy && busyLabel ? busyLabel : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
