import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet, Route, Routes } from 'react-router';
import { FlagIcon } from '../../components/first-load-icons';
import { BanIcon, ChartIcon, ShieldIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { sessionQueries } from '../../lib/session';
import { AdminAccessRequired } from './admin-access-required';
import styles from './admin-panel.module.css';

// Each page is a chunk of its own, fetched when someone opens it (docs/frontend.md, "First load").
const AnalyticsPage = lazy(() => import('./analytics-page').then((m) => ({ default: m.AnalyticsPage })));
const ComplaintsPage = lazy(() => import('./complaints-page').then((m) => ({ default: m.ComplaintsPage })));
const SuspendedPage = lazy(() => import('./suspended-page').then((m) => ({ default: m.SuspendedPage })));
const ServersPage = lazy(() => import('./servers-page').then((m) => ({ default: m.ServersPage })));

/** The panel's pages (spec §2 Route table), relative to /admin. */
export const ADMIN_PAGES = [
  { to: '/admin/a', label: 'Analytics', icon: ChartIcon },
  { to: '/admin/c', label: 'Complaints', icon: FlagIcon },
  { to: '/admin/s', label: 'Suspended', icon: BanIcon },
  { to: '/admin/f', label: 'Other servers', icon: ShieldIcon },
] as const;

/**
 * The panel's frame: its own navigation with 'Analytics' and 'Complaints' (spec §2 Admin panel)
 * beside the page, a column on wide screens and a row of tabs on top on a phone. It sits inside
 * the app's layout, so the app's navigation bar stays.
 */
function AdminLayout() {
  return (
    <div className={styles.panel}>
      <aside className={styles.aside}>
        <p className={`eyebrow ${styles.eyebrow}`}>Admin panel</p>
        <nav aria-label="Admin" className={styles.nav}>
          {ADMIN_PAGES.map(({ to, label, icon: PageIcon }) => (
            <NavLink key={to} to={to} className={styles.link}>
              <PageIcon size={20} />
              <span>{label}</span>
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className={styles.content}>
        {/* A page still loading keeps the panel's navigation on screen. */}
        <Suspense fallback={<PageSpinner label="Loading page" />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}

/**
 * /admin/* (spec §2): /admin goes on to /admin/a (analytics), /admin/c lists the complaints;
 * beyond the spec, /admin/s lists the suspended accounts and /admin/f the blocked servers
 * (federation, docs/federation.md).
 * Behind the sign-in guard. A session check that says the account is no admin shows 'Admin
 * access required' at once, with no admin call made; the server still decides each call, and
 * its refusals are shown by the pages (AdminRefused).
 */
export function AdminPanel() {
  const me = useQuery(sessionQueries.me());
  if (me.data && me.data.is_admin === false) return <AdminAccessRequired />;
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route path="a" element={<AnalyticsPage />} />
        <Route path="c" element={<ComplaintsPage />} />
        <Route path="s" element={<SuspendedPage />} />
        <Route path="f" element={<ServersPage />} />
      </Route>
      <Route index element={<Navigate to="/admin/a" replace />} />
      <Route path="*" element={<Navigate to="/admin/a" replace />} />
    </Routes>
  );
}
