import { useQuery } from '@tanstack/react-query';
import { GoogleIcon } from '../../../components/icons';
import { markHandoffStarted } from '../../../lib/token-storage';
import { authQueries } from '../api';
import styles from './auth-actions.module.css';

export const GOOGLE_NOT_SET_UP = 'Google sign-in is not set up on this server.';

interface GoogleButtonProps {
  label: string;
  /** Where the browser goes to start Google sign-in. */
  href: () => string;
  disabled?: boolean;
}

/** Starts Google sign-in, or says plainly that this server has it switched off. */
export function GoogleButton({ label, href, disabled = false }: GoogleButtonProps) {
  const providers = useQuery(authQueries.providers());
  const unavailable = providers.data?.google === false;
  return (
    <div className={styles.google}>
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={disabled || unavailable || providers.isPending}
        aria-describedby={unavailable ? 'google-unavailable' : undefined}
        onClick={() => {
          markHandoffStarted();
          window.location.assign(href());
        }}
      >
        <GoogleIcon />
        {label}
      </button>
      {unavailable ? (
        <p id="google-unavailable" className={styles.note}>
          {GOOGLE_NOT_SET_UP}
        </p>
      ) : null}
    </div>
  );
}

/** The "or" between the form and the other ways in. */
export function Divider() {
  return (
    <div className={styles.divider} role="separator">
      <span>or</span>
    </div>
  );
}
