import styles from './spinner.module.css';

interface SpinnerProps {
  /** Read by screen readers; '' makes the spinner purely decorative. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
}

export function Spinner({ label = 'Loading', size = 'md' }: SpinnerProps) {
  if (label === '') {
    // Inside a control whose text already says what is happening ('Signing In...').
    return <span className={`${styles.spinner} ${styles[size]}`} aria-hidden="true" />;
  }
  return (
    <span role="status" className={styles.wrapper}>
      <span className={`${styles.spinner} ${styles[size]}`} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** A spinner centred in the space a page would take. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.page}>
      <Spinner label={label} size="lg" />
    </div>
  );
}
