import { useId } from 'react';
import styles from './logo.module.css';

interface LogoProps {
  /** Hide the word mark and keep the symbol only. */
  compact?: boolean;
  /** White text for dark backgrounds. */
  inverted?: boolean;
}

/** The SelfSound mark: a sound wave in a rounded square, with the word mark beside it. */
export function Logo({ compact = false, inverted = false }: LogoProps) {
  // Each logo needs its own gradient id: a hidden copy elsewhere on the page would otherwise
  // own the id and the visible mark would render without its fill.
  const gradientId = `logo-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <span className={`${styles.logo} ${inverted ? styles.inverted : ''}`}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6D01D0" />
            <stop offset="1" stopColor="#000C9C" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill={inverted ? '#ffffff' : `url(#${gradientId})`} />
        <g
          stroke={inverted ? '#6D01D0' : '#ffffff'}
          strokeWidth="2.6"
          strokeLinecap="round"
          fill="none"
        >
          <path d="M8 13.5v5M12.5 10v12M17 7.5v17M21.5 11v10M26 14v4" />
        </g>
      </svg>
      {compact ? <span className="visually-hidden">SelfSound</span> : <span className={styles.word}>SelfSound</span>}
    </span>
  );
}
