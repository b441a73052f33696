import { Link } from 'react-router';
import { ArrowRightIcon } from '../../components/icons';
import { useViewer } from '../../lib/session';
import styles from './settings-page.module.css';

/**
 * The way to the admin panel, for admins only (the session check says `is_admin`). Nobody else
 * sees it; the panel's calls are still the server's to allow.
 */
export function AdminSection() {
  const viewer = useViewer();
  if (viewer?.is_admin !== true) return null;
  return (
    <section className={styles.section} aria-labelledby="admin-title">
      <header className={styles.sectionHeader}>
        <h2 id="admin-title">Admin</h2>
        <p>Site analytics and the complaints people have filed about posts.</p>
      </header>
      <div className={styles.row}>
        <Link to="/admin" className="btn btn-secondary">
          Open the admin panel
          <ArrowRightIcon size={18} />
        </Link>
      </div>
    </section>
  );
}
