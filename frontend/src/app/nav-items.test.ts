import { describe, expect, it } from 'vitest';
import { CURRENT_PAGE_KEY, activeNavItem, navItemForPath, readRememberedPage, rememberPage } from './nav-items';

describe('navItemForPath', () => {
  it.each([
    ['/home', 'home'],
    ['/', 'home'],
    ['/search', 'search'],
    ['/add-post-media', 'add-post'],
    ['/add-post-musicxml', 'add-post'],
    ['/notifications', 'notifications'],
    ['/profile', 'profile'],
    ['/profile/42', 'profile'],
    ['/settings', 'settings'],
    ['/settings/', 'settings'],
    ['/post/1', null],
    ['/user/7', null],
    ['/sign-in', null],
    ['/homework', null],
  ])('%s → %s', (path, item) => {
    expect(navItemForPath(path)).toBe(item);
  });
});

describe('activeNavItem', () => {
  it("uses the path's own item first", () => {
    expect(activeNavItem('/settings', 'home')).toBe('settings');
  });

  it('keeps the remembered item on detail pages', () => {
    expect(activeNavItem('/post/123', 'search')).toBe('search');
    expect(activeNavItem('/user/9', 'notifications')).toBe('notifications');
    expect(activeNavItem('/another-user-rofile', 'home')).toBe('home');
  });

  it('highlights nothing elsewhere or with a bad memory', () => {
    expect(activeNavItem('/nowhere', 'home')).toBeNull();
    expect(activeNavItem('/post/1', 'garbage')).toBeNull();
    expect(activeNavItem('/post/1', null)).toBeNull();
  });
});

describe('remembered page', () => {
  it('is kept in local storage', () => {
    rememberPage('search');
    expect(localStorage.getItem(CURRENT_PAGE_KEY)).toBe('search');
    expect(readRememberedPage()).toBe('search');
  });
});

describe("someone else's /profile/{id}", () => {
  it('belongs to Profile only when the id is the viewer’s', () => {
    expect(navItemForPath('/profile/42', '42')).toBe('profile');
    expect(navItemForPath('/profile/42', '7')).toBeNull();
    expect(navItemForPath('/profile/42', null)).toBeNull();
  });

  it('keeps the remembered item highlighted, as other profiles do', () => {
    expect(activeNavItem('/profile/42', 'search', '7')).toBe('search');
    expect(activeNavItem('/profile/42', 'home', null)).toBe('home');
    expect(activeNavItem('/profile', 'search', '7')).toBe('profile');
  });

  it("never highlights Profile, even when the visitor came from their own (issue 19)", () => {
    expect(activeNavItem('/profile/42', 'profile', '7')).toBeNull();
    expect(activeNavItem('/user/42', 'profile', '7')).toBeNull();
    expect(activeNavItem('/another-user-rofile', 'profile')).toBeNull();
    // A post reached from one's own profile still keeps it.
    expect(activeNavItem('/post/1', 'profile', '7')).toBe('profile');
  });
});
