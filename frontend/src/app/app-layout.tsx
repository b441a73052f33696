import { lazy, Suspense, useRef } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { useNowPlayingShown } from '../features/player';
import { useForgetDeadToken } from '../lib/session';
import { useFocusNewPage } from './focus-new-page';
import { NavBar } from './nav-bar';
import styles from './app-layout.module.css';

// Most visits play nothing: the bar is fetched the first time a track is loaded, not with the
// first screen (docs/frontend.md, "First load").
const NowPlayingBar = lazy(() =>
  import('../features/player/now-playing-bar').then((m) => ({ default: m.NowPlayingBar })),
);

/**
 * Every app screen except the sign-in, sign-up and verify pages: navigation bar + content, and
 * the now-playing bar while a track is loaded (the content is padded so it never hides behind).
 * After moving to another page, focus goes to its main heading (useFocusNewPage).
 */
export function AppLayout() {
  useForgetDeadToken();
  const playerShown = useNowPlayingShown();
  const main = useRef<HTMLElement>(null);
  useFocusNewPage(main);
  return (
    <div className={styles.shell} data-now-playing={playerShown || undefined}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <NavBar />
      <main id="main" ref={main} className={styles.main} tabIndex={-1}>
        {/* A page still loading keeps the nav bar on screen. */}
        <Suspense fallback={<PageSpinner label="Loading page" />}>
          <Outlet />
        </Suspense>
      </main>
      {playerShown ? (
        <Suspense fallback={null}>
          <NowPlayingBar />
        </Suspense>
      ) : null}
    </div>
  );
}
