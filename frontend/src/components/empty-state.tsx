import type { ReactNode } from 'react';
import styles from './empty-state.module.css';

interface EmptyStateProps {
  /** A decorative icon above the title (26 px suits). */
  icon?: ReactNode;
  title: string;
  text: string;
}

/** What a list says when it has nothing yet ('No posts yet' / 'Be the first to share something!'). */
export function EmptyState({ icon, title, text }: EmptyStateProps) {
  return (
    <div className={styles.empty}>
      {icon ? (
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      <p className={styles.title}>{title}</p>
      <p className={styles.text}>{text}</p>
    </div>
  );
}
