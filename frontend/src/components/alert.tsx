import type { ReactNode } from 'react';
import { CloseIcon } from './first-load-icons';
import { Icon } from './icon';
import styles from './alert.module.css';

export type AlertTone = 'error' | 'success' | 'info' | 'warning';

interface AlertProps {
  tone: AlertTone;
  children: ReactNode;
  title?: string;
  /** Shows a close button. */
  onDismiss?: () => void;
  className?: string;
}

const ICONS: Record<AlertTone, ReactNode> = {
  error: <path d="M12 8v5m0 3h.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />,
  warning: <path d="M12 8v5m0 3h.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />,
  success: <path d="M20 6 9 17l-5-5" />,
  info: <path d="M12 16v-4m0-4h.01M22 12a10 10 0 1 1-20 0 10 10 0 0 1 20 0Z" />,
};

/**
 * A banner message. Errors and warnings are announced at once (role=alert); success and info
 * politely (role=status).
 */
export function Alert({ tone, children, title, onDismiss, className }: AlertProps) {
  return (
    <div
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      className={[styles.alert, styles[tone], className].filter(Boolean).join(' ')}
    >
      <Icon size={20} className={styles.icon}>
        {ICONS[tone]}
      </Icon>
      <div className={styles.body}>
        {title ? <p className={styles.title}>{title}</p> : null}
        <div>{children}</div>
      </div>
      {onDismiss ? (
        <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label="Dismiss">
          <CloseIcon size={18} />
        </button>
      ) : null}
    </div>
  );
}
