import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../test/server';
import { currentLocation, renderPage } from '../test/render';
import { CURRENT_PAGE_KEY } from './nav-items';
import { storeToken } from '../lib/token-storage';
import { NavBar } from './nav-bar';

const ada = {
  id: '1',
  name: 'Ada',
  login: 'ada',
  description: null,
  avatar_url: null,
  tag_id: null,
  email: 'ada@example.com',
};

function signedIn(yes: boolean) {
  if (yes) storeToken('test-token');
  server.use(
    http.get(api('/authorization/session'), () => HttpResponse.json({ user: yes ? ada : null })),
  );
}

// jsdom applies no media queries, so the side bar and the phone bars are all in the document:
// these helpers look inside one of them.
const sideBar = () => screen.getByRole('complementary', { name: 'Main navigation' });
const bottomBar = () =>
  screen.getAllByRole('navigation', { name: 'Main' }).find((nav) => !sideBar().contains(nav))!;

describe('NavBar', () => {
  it('links every destination with an accessible name', () => {
    signedIn(true);
    renderPage(<NavBar />, { route: '/home' });
    const side = within(sideBar());
    expect(side.getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/search');
    expect(side.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(side.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
    expect(side.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(side.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    const bottom = within(bottomBar());
    for (const name of ['Search', 'Home', 'Notifications', 'Profile']) {
      expect(bottom.getByRole('link', { name })).toBeInTheDocument();
    }
    expect(bottom.getByRole('button', { name: 'Add post' })).toBeInTheDocument();
    // The phone top bar carries the settings icon.
    expect(screen.getByRole('banner')).toContainElement(screen.getAllByRole('link', { name: 'Settings' })[1]!);
  });

  it('highlights the active item and remembers the page name', () => {
    signedIn(true);
    renderPage(<NavBar />, { route: '/settings' });
    expect(within(sideBar()).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    expect(within(sideBar()).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(localStorage.getItem(CURRENT_PAGE_KEY)).toBe('settings');
  });

  it('highlights nothing on a post, wherever the visitor came from (the address decides)', () => {
    signedIn(true);
    localStorage.setItem(CURRENT_PAGE_KEY, 'search');
    renderPage(<NavBar />, { route: '/post/12' });
    expect(within(bottomBar()).getByRole('link', { name: 'Search' })).not.toHaveAttribute('aria-current');
    expect(screen.queryAllByRole('link', { current: 'page' })).toEqual([]);
  });

  it('opens the add-post chooser with its four options', async () => {
    signedIn(true);
    renderPage(<NavBar />, { route: '/home' });
    const user = userEvent.setup();
    await user.click(within(bottomBar()).getByRole('button', { name: 'Add post' }));
    // The chooser is fetched on demand (not in the first load), so it appears a moment later.
    const dialog = await screen.findByRole('dialog', { name: 'Add new post' });
    const options = within(dialog).getAllByRole('link');
    expect(options.map((o) => o.getAttribute('href'))).toEqual([
      '/add-post-media',
      '/add-post-audio',
      '/add-post-lyrics',
      '/add-post-musicxml',
    ]);
    expect(within(dialog).getByRole('link', { name: /MusicXML/ })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('link', { name: /Audio/ }));
    expect(currentLocation()).toBe('/add-post-audio');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers a guest Sign in and Sign up in place of what needs an account', async () => {
    signedIn(false);
    renderPage(<NavBar />, { route: '/home' });
    const side = within(sideBar());
    await side.findByRole('link', { name: 'Sign up' });
    expect(side.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(side.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up');
    for (const name of ['Search', 'Home', 'Discover']) expect(side.getByRole('link', { name })).toBeInTheDocument();
    for (const name of ['Notifications', 'Profile', 'Settings']) expect(screen.queryByRole('link', { name })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add post' })).toBeNull();
    expect(within(bottomBar()).getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/search', '/home', '/discover']);
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Sign up' })).toBeInTheDocument();
  });

  it('closes the chooser with Escape', async () => {
    signedIn(true);
    renderPage(<NavBar />, { route: '/home' });
    const user = userEvent.setup();
    await user.click(within(sideBar()).getByRole('button', { name: 'Add post' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the signed-in user, or a way to sign in for visitors', async () => {
    signedIn(true);
    const { unmount } = renderPage(<NavBar />, { route: '/home' });
    expect(await within(sideBar()).findByText('@ada')).toBeInTheDocument();
    unmount();

    signedIn(false);
    renderPage(<NavBar />, { route: '/home' });
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Sign in' })).toHaveLength(2));
    expect(screen.queryByText('@ada')).toBeNull();
  });
});
