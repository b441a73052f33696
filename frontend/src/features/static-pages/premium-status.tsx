import { SparkIcon } from '../../components/icons';
import styles from './premium-status.module.css';

export const PREMIUM_UNDER_DEVELOPMENT = 'Premium is under development.';
export const PREMIUM_RELEASE = 'Expected release: Coming soon';

/** Where Premium stands (spec §1): under development, release coming soon. */
export function PremiumStatus() {
  return (
    <div className={styles.status} role="status">
      <span className={styles.icon}>
        <SparkIcon size={26} />
      </span>
      <div className={styles.text}>
        <p className={styles.title}>{PREMIUM_UNDER_DEVELOPMENT}</p>
        <p className={styles.release}>{PREMIUM_RELEASE}</p>
      </div>
    </div>
  );
}
