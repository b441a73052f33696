/**
 * The navigation bar's destinations and which one is active (spec §2 Navigation bar). The
 * highlight follows the address alone: a page that is no destination of its own (a post,
 * someone else's profile, a page not found) highlights nothing, since a highlighted "Search"
 * on a post would say the post is the search page. The current page name is still remembered
 * in local storage, as the spec says.
 */

export type NavItemId = 'search' | 'home' | 'discover' | 'add-post' | 'notifications' | 'profile' | 'settings';

export const CURRENT_PAGE_KEY = 'currentPage';

export interface NavLinkItem {
  id: Exclude<NavItemId, 'add-post'>;
  label: string;
  to: string;
}

export const NAV_LINKS: Record<NavLinkItem['id'], NavLinkItem> = {
  search: { id: 'search', label: 'Search', to: '/search' },
  home: { id: 'home', label: 'Home', to: '/home' },
  discover: { id: 'discover', label: 'Discover', to: '/discover' },
  notifications: { id: 'notifications', label: 'Notifications', to: '/notifications' },
  profile: { id: 'profile', label: 'Profile', to: '/profile' },
  settings: { id: 'settings', label: 'Settings', to: '/settings' },
};

/**
 * Who is looking, as far as the nav bar knows: a user id, null (nobody signed in) or undefined
 * (not known yet, or not asked).
 */
type Viewer = string | null | undefined;

/** /profile/{id}: the Profile route with an id, someone else's profile unless the id is yours. */
const PROFILE_BY_ID = /^\/profile\/([^/]+)$/;

/**
 * The item a path belongs to, or null for pages that are not a navigation destination.
 * /profile/{id} belongs to Profile only when it is the viewer's own id; when the viewer is not
 * known, the path alone decides.
 */
export function navItemForPath(pathname: string, viewerId?: Viewer): NavItemId | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/home') return 'home';
  if (path === '/search') return 'search';
  if (path === '/discover') return 'discover';
  if (path.startsWith('/add-post-')) return 'add-post';
  if (path === '/notifications') return 'notifications';
  if (path === '/profile') return 'profile';
  const byId = PROFILE_BY_ID.exec(path);
  if (byId) return viewerId === undefined || decodeURIComponent(byId[1] ?? '') === viewerId ? 'profile' : null;
  if (path.startsWith('/profile/')) return 'profile';
  if (path === '/settings') return 'settings';
  return null;
}

/** The page name kept in local storage (spec §2), for a destination the visitor is on. */
export function rememberPage(id: NavItemId): void {
  try {
    localStorage.setItem(CURRENT_PAGE_KEY, id);
  } catch {
    // Nothing to do: the highlight still follows the address.
  }
}
