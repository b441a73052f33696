import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { CloseIcon } from './first-load-icons';
import styles from './toast.module.css';

/** How long a message stays unless pointed at or focused (long enough to reach an Undo). */
export const TOAST_MS = 10_000;

export interface Toasts {
  /** Shows `content` at the bottom of the screen, replacing any message already there. */
  show: (content: ReactNode) => void;
  dismiss: () => void;
}

const ToastContext = createContext<Toasts>({ show: () => {}, dismiss: () => {} });

/** Messages that outlive the page that sent them (e.g. "You blocked @ben" after leaving his profile). */
export function useToast(): Toasts {
  return useContext(ToastContext);
}

interface Shown {
  id: number;
  content: ReactNode;
}

/**
 * Holds the current message and shows it in a polite live region, so screen readers hear it
 * without losing their place. The region is always in the page: a live region added together
 * with its text is often not announced.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [held, setHeld] = useState(false);

  const toasts = useMemo<Toasts>(
    () => ({
      show: (content) => setShown((current) => ({ id: (current?.id ?? 0) + 1, content })),
      dismiss: () => setShown(null),
    }),
    [],
  );

  useEffect(() => {
    if (!shown || held) return;
    const timer = window.setTimeout(() => setShown(null), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [shown, held]);

  return (
    <ToastContext.Provider value={toasts}>
      {children}
      <div className={styles.region} aria-live="polite">
        {shown ? (
          <div
            key={shown.id}
            className={styles.toast}
            data-testid="toast"
            onPointerEnter={() => setHeld(true)}
            onPointerLeave={() => setHeld(false)}
            onFocus={() => setHeld(true)}
            onBlur={() => setHeld(false)}
          >
            <div className={styles.content}>{shown.content}</div>
            <button type="button" className={styles.close} onClick={() => setShown(null)} aria-label="Dismiss">
              <CloseIcon size={18} />
            </button>
          </div>
        ) : null}
      </div>
    </ToastContext.Provider>
  );
}
