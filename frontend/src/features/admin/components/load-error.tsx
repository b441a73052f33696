import { Alert } from '../../../components/alert';
import { Spinner } from '../../../components/spinner';
import { ADMIN_MESSAGES } from '../api';
import styles from './load-error.module.css';

interface LoadErrorProps {
  message: string;
  /** Fetching again right now. */
  busy: boolean;
  onRetry: () => void;
}

/** A load that failed, in spec §8's words, with 'Try Again'. */
export function LoadError({ message, busy, onRetry }: LoadErrorProps) {
  return (
    <div className={styles.error}>
      <Alert tone="error">{message}</Alert>
      <button type="button" className="btn btn-secondary" onClick={onRetry} disabled={busy}>
        {busy ? <Spinner size="sm" label="" /> : null}
        {ADMIN_MESSAGES.tryAgain}
      </button>
    </div>
  );
}
