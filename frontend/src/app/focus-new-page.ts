import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/** How long a new page may take to show its heading (a lazy chunk, a first answer). */
const HEADING_WAIT_MS = 3000;

/**
 * After moving to another page (not on the first one, and not when only the query or hash
 * changes), keyboard and screen-reader users start at the new page's content: focus goes to its
 * main heading (its `h1`, made focusable for this) once it shows, else to `main` itself. A page
 * that put focus somewhere inside itself meanwhile (a search box) keeps it.
 */
export function useFocusNewPage(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = main.current;
    if (!root) return;
    const settle = (): boolean => {
      const active = document.activeElement;
      // The page focused something of its own: leave it there.
      if (active && active !== root && root.contains(active)) return true;
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (settle()) return;
    const observer = new MutationObserver(() => {
      if (settle()) stop();
    });
    const timer = window.setTimeout(() => {
      stop();
      if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
    }, HEADING_WAIT_MS);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
    }
    observer.observe(root, { childList: true, subtree: true });
    return stop;
  }, [pathname, main]);
}
