import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';
import styles from './not-found-page.module.css';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <section className={styles.page} aria-labelledby="not-found-title">
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Page not found</h1>
      <p className={styles.text}>
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/home" className="btn btn-primary">
        Go to home
      </Link>
    </section>
  );
}
