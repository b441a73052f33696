import { blockErrorMessage, useBlockToggle } from '../api';
import styles from './blocked-notice.module.css';

/**
 * The message after blocking someone, shown on the page the block led to: who was blocked, and
 * an Undo that unblocks them (the listening the block ended is not restored).
 */
export function BlockedNotice({ userId, who }: { userId: string; who: string }) {
  const unblock = useBlockToggle();

  if (unblock.isSuccess) {
    return <span>You unblocked {who}.</span>;
  }
  return (
    <span className={styles.notice}>
      <span className={styles.text}>
        You blocked {who}.
        {unblock.isError ? <span className={styles.error}>{blockErrorMessage(unblock.error)}</span> : null}
      </span>
      <button
        type="button"
        className={styles.undo}
        onClick={() => unblock.mutate({ userId, block: false })}
        disabled={unblock.isPending}
      >
        {unblock.isPending ? 'Undoing...' : 'Undo'}
      </button>
    </span>
  );
}
