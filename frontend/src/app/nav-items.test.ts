import { describe, expect, it } from 'vitest';
import { CURRENT_PAGE_KEY, navItemForPath, rememberPage } from './nav-items';

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

describe('remembered page', () => {
  it('is kept in local storage', () => {
    rememberPage('search');
    expect(localStorage.getItem(CURRENT_PAGE_KEY)).toBe('search');
  });
});

describe("someone else's /profile/{id}", () => {
  it('belongs to Profile only when the id is the viewer’s', () => {
    expect(navItemForPath('/profile/42', '42')).toBe('profile');
    expect(navItemForPath('/profile/42', '7')).toBeNull();
    expect(navItemForPath('/profile/42', null)).toBeNull();
  });
});
