import type { ComplaintStatus } from '../api';
import styles from './status-badge.module.css';

/** A complaint's status in the server's word ('pending', 'deleted', 'ignored'), coloured. */
export function StatusBadge({ status }: { status: ComplaintStatus }) {
  return <span className={`${styles.badge} ${styles[status] ?? ''}`}>{status}</span>;
}
