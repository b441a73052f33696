/**
 * Asks before an in-app link takes the person away from a post being written or uploaded.
 *
 * The app uses the declarative <BrowserRouter>, where react-router's useBlocker is not
 * available, so the guard listens for clicks on links (in the capture phase, before the
 * router's own handler) while it is active, holds the navigation back and lets the page ask.
 * The Back button of the browser is not held back; leaving that way still aborts the upload.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { BASE_PATH } from '../../lib/config';

/** An address inside the app ('/home?x#y'), or null for one the router does not handle. */
export function appRouteOf(url: URL): string | null {
  if (url.origin !== window.location.origin) return null;
  let path = url.pathname;
  if (BASE_PATH) {
    if (path !== BASE_PATH && !path.startsWith(`${BASE_PATH}/`)) return null;
    path = path.slice(BASE_PATH.length) || '/';
  }
  return `${path}${url.search}${url.hash}`;
}

export interface LeaveGuard {
  /** Where a held-back link would go, while the page asks. */
  destination: string | null;
  /** Go there after all. */
  leave: () => void;
  /** Stay on the page. */
  stay: () => void;
}

export function useLeaveGuard(active: boolean): LeaveGuard {
  const navigate = useNavigate();
  const [destination, setDestination] = useState<string | null>(null);

  useEffect(() => {
    if (!active) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      // A new tab or window leaves this page alone.
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const route = appRouteOf(new URL(anchor.href, window.location.href));
      if (route === null) return;
      // The router's Link does nothing with a click whose default was prevented.
      event.preventDefault();
      setDestination(route);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [active]);

  return {
    destination: active ? destination : null,
    leave: () => {
      const to = destination;
      setDestination(null);
      if (to !== null) void navigate(to);
    },
    stay: () => setDestination(null),
  };
}
