import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Avatar } from '../components/avatar';
import {
  BellIcon,
  CompassIcon,
  HomeIcon,
  PlusIcon,
  SearchIcon,
  SettingsIcon,
  UserIcon,
} from '../components/first-load-icons';
import { Logo } from '../components/logo';
import { UnreadBadge, unreadLabel, useUnreadCount } from '../features/notifications';
import { sessionQueries, type CurrentUser } from '../lib/session';
import { getToken } from '../lib/token-storage';
import { NAV_LINKS, navItemForPath, rememberPage, type NavItemId, type NavLinkItem } from './nav-items';
import styles from './nav-bar.module.css';

// The add-post chooser (a dialog with four options) is not part of the first load: it is fetched
// when the button is pointed at, focused or pressed.
const loadChooser = () => import('./add-post-chooser');
const AddPostChooser = lazy(() => loadChooser().then((m) => ({ default: m.AddPostChooser })));
const prefetchChooser = () => void loadChooser();

const ICONS: Record<NavLinkItem['id'], (size: number) => ReactNode> = {
  search: (size) => <SearchIcon size={size} />,
  home: (size) => <HomeIcon size={size} />,
  discover: (size) => <CompassIcon size={size} />,
  notifications: (size) => <BellIcon size={size} />,
  profile: (size) => <UserIcon size={size} />,
  settings: (size) => <SettingsIcon size={size} />,
};

/**
 * The item the address belongs to (nothing on a post or someone else's profile), remembered as
 * the current page name. Someone else's /profile/{id} is not Profile: that means your own.
 */
function useActiveItem(viewerId: string | null): NavItemId | null {
  const { pathname } = useLocation();
  const own = navItemForPath(pathname, viewerId);
  useEffect(() => {
    if (own) rememberPage(own);
  }, [own]);
  return own;
}

interface ItemProps {
  item: NavLinkItem;
  active: boolean;
  variant: 'side' | 'bottom';
  user: CurrentUser | null | undefined;
  /** Unread notifications, drawn on the Notifications icon and said in its name. */
  unread?: number;
}

function NavItemLink({ item, active, variant, user, unread }: ItemProps) {
  const size = variant === 'side' ? 22 : 24;
  const icon =
    item.id === 'profile' && user ? (
      <Avatar src={user.avatar_url} name="" size={size + 2} className={styles.navAvatar} />
    ) : (
      ICONS[item.id](size)
    );
  return (
    <Link
      to={item.to}
      className={`${styles.item} ${active ? styles.active : ''}`}
      aria-current={active ? 'page' : undefined}
      aria-label={variant === 'bottom' || unread ? unreadLabel(item.label, unread) : undefined}
      data-nav={item.id}
    >
      <span className={styles.icon}>
        {icon}
        <UnreadBadge count={unread} />
      </span>
      {variant === 'side' ? <span className={styles.label}>{item.label}</span> : null}
    </Link>
  );
}

/**
 * The navigation bar (spec §2): a fixed side bar at 1024px and wider; below that a top bar with
 * the logo and a settings icon plus a bottom bar. Both are rendered; CSS shows the one that fits.
 * A guest gets only what a guest can use (Search, Home, Discover) and Sign in / Sign up in place
 * of Add post, Notifications, Profile and Settings, which would all lead to sign-in. Until the
 * session check answers, a stored token says which bar to draw.
 */
export function NavBar() {
  const [chooserOpen, setChooserOpen] = useState(false);
  const { data: user } = useQuery(sessionQueries.me());
  // Until the session check answers, nobody is the owner of a /profile/{id}.
  const active = useActiveItem(user?.id ?? null);
  const signedOut = user === null;
  const guest = signedOut || (user === undefined && !getToken());
  const unread = useUnreadCount(user?.id);
  const link = (id: NavLinkItem['id'], variant: 'side' | 'bottom') => (
    <NavItemLink
      key={id}
      item={NAV_LINKS[id]}
      active={active === id}
      variant={variant}
      user={user}
      unread={id === 'notifications' ? unread : undefined}
    />
  );

  const addPostButton = (variant: 'side' | 'bottom') => (
    <button
      type="button"
      className={`${variant === 'side' ? styles.addSide : styles.addBottom} ${
        active === 'add-post' ? styles.addActive : ''
      }`}
      onClick={() => setChooserOpen(true)}
      onPointerEnter={prefetchChooser}
      onFocus={prefetchChooser}
      aria-haspopup="dialog"
      aria-label={variant === 'bottom' ? 'Add post' : undefined}
      data-nav="add-post"
    >
      <PlusIcon size={variant === 'side' ? 20 : 26} />
      {variant === 'side' ? <span>Add post</span> : null}
    </button>
  );

  const topIcon = (id: 'discover' | 'settings', Icon: typeof CompassIcon) => (
    <Link
      to={NAV_LINKS[id].to}
      className={`${styles.topIcon} ${active === id ? styles.active : ''}`}
      aria-label={NAV_LINKS[id].label}
      aria-current={active === id ? 'page' : undefined}
      data-nav={id}
    >
      <Icon size={22} />
    </Link>
  );

  const order = ['search', 'home'] as const;
  const after = ['notifications', 'profile'] as const;

  return (
    <>
      <aside className={styles.side} aria-label="Main navigation">
        <Link to="/home" className={styles.sideLogo} aria-label="SelfSound home">
          <Logo />
        </Link>
        <nav className={styles.sideNav} aria-label="Main">
          {[...order, 'discover' as const].map((id) => link(id, 'side'))}
          {guest ? null : (
            <>
              {addPostButton('side')}
              {[...after, 'settings' as const].map((id) => link(id, 'side'))}
            </>
          )}
        </nav>
        <div className={styles.sideFooter}>
          {user ? (
            <div className={styles.userChip}>
              <Avatar src={user.avatar_url} name="" size={36} />
              <div className={styles.userText}>
                <span className={styles.userName}>{user.name}</span>
                <span className={styles.userLogin}>@{user.login}</span>
              </div>
            </div>
          ) : guest ? (
            <div className={styles.guestActions}>
              <Link to="/sign-in" className="btn btn-secondary btn-block">
                Sign in
              </Link>
              <Link to="/sign-up" className="btn btn-primary btn-block">
                Sign up
              </Link>
            </div>
          ) : null}
        </div>
      </aside>

      <header className={styles.top}>
        <Link to="/home" className={styles.topLogo} aria-label="SelfSound home">
          <Logo />
        </Link>
        <div className={styles.topActions}>
          {guest ? (
            <>
              <Link to="/sign-in" className={styles.topSignIn}>
                Sign in
              </Link>
              <Link to="/sign-up" className={`${styles.topSignIn} ${styles.topSignUp}`}>
                Sign up
              </Link>
            </>
          ) : (
            <>
              {topIcon('discover', CompassIcon)}
              {topIcon('settings', SettingsIcon)}
            </>
          )}
        </div>
      </header>

      <nav className={guest ? `${styles.bottom} ${styles.bottomGuest}` : styles.bottom} aria-label="Main">
        {order.map((id) => link(id, 'bottom'))}
        {guest ? (
          link('discover', 'bottom')
        ) : (
          <>
            {addPostButton('bottom')}
            {after.map((id) => link(id, 'bottom'))}
          </>
        )}
      </nav>

      {chooserOpen && !guest ? (
        <Suspense fallback={null}>
          <AddPostChooser open onClose={() => setChooserOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
