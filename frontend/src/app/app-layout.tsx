import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { useForgetDeadToken } from '../lib/session';
import { NavBar } from './nav-bar';
import styles from './app-layout.module.css';

/** Every app screen except the sign-in, sign-up and verify pages: navigation bar + content. */
export function AppLayout() {
  useForgetDeadToken();
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <NavBar />
      <main id="main" className={styles.main} tabIndex={-1}>
        {/* A page still loading keeps the nav bar on screen. */}
        <Suspense fallback={<PageSpinner label="Loading page" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
