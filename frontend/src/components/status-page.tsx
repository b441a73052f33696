import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';
import styles from './status-page.module.css';

/**
 * A page that says why there is nothing to show here (not found, no access), with a way home:
 * a large code above the heading, a sentence, and 'Go to home' (or what `actions` gives).
 */
export function StatusPage({
  code,
  title,
  text,
  actions,
}: {
  code: string;
  title: string;
  text: string;
  actions?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className={styles.page} aria-labelledby="status-page-title">
      <p className={styles.code} aria-hidden="true">
        {code}
      </p>
      <h1 id="status-page-title">{title}</h1>
      <p className={styles.text}>{text}</p>
      <div className={styles.actions}>
        {actions}
        <Link to="/home" className="btn btn-primary">
          Go to home
        </Link>
      </div>
    </section>
  );
}
