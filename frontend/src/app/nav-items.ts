/**
 * The navigation bar's destinations and which one is active (spec §2 Navigation bar). The
 * current page name is remembered in local storage so pages that are not destinations of
 * their own (a post, another user's profile) keep the item the visitor came from highlighted.
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

const ITEM_IDS: readonly NavItemId[] = [
  'search',
  'home',
  'discover',
  'add-post',
  'notifications',
  'profile',
  'settings',
];

function isNavItemId(value: string | null): value is NavItemId {
  return value !== null && (ITEM_IDS as readonly string[]).includes(value);
}

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

/** Pages reached from a list (a post, another user's profile) rather than from the bar. */
const DETAIL_PAGES = /^\/(post|user|profile)\/[^/]+\/?$|^\/another-user-rofile\/?$/;

/** Someone's profile page: /user/{id}, /profile/{id}, the spec's /another-user-rofile. */
const PERSON_PAGES = /^\/(user|profile)\/[^/]+\/?$|^\/another-user-rofile\/?$/;

/**
 * The highlighted item: the path's own; on a detail page (including someone else's
 * /profile/{id}) the remembered one (where the visitor came from); nothing elsewhere (e.g. the
 * not-found page). 'Profile' means one's own: someone else's profile never highlights it, even
 * when the visitor came there from their own.
 */
export function activeNavItem(pathname: string, remembered: string | null, viewerId?: Viewer): NavItemId | null {
  const own = navItemForPath(pathname, viewerId);
  if (own) return own;
  if (!DETAIL_PAGES.test(pathname) || !isNavItemId(remembered)) return null;
  if (remembered === 'profile' && PERSON_PAGES.test(pathname)) return null;
  return remembered;
}

export function readRememberedPage(): string | null {
  try {
    return localStorage.getItem(CURRENT_PAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberPage(id: NavItemId): void {
  try {
    localStorage.setItem(CURRENT_PAGE_KEY, id);
  } catch {
    // Nothing to do: the highlight still follows the address.
  }
}
