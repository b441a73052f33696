import type { ReactNode } from 'react';
import styles from './page-header.module.css';

/** A panel page's title and the line under it. */
export function PageHeader({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <header>
      <h1>{title}</h1>
      {lead ? <p className={styles.lead}>{lead}</p> : null}
    </header>
  );
}
