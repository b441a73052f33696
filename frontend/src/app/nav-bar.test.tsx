import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../test/server';
import { currentLocation, renderPage } from '../test/render';
import { CURRENT_PAGE_KEY } from './nav-items';
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
  server.use(
    http.get(api('/authorization/me'), () =>
      yes ? HttpResponse.json(ada) : HttpResponse.json({ detail: 'no' }, { status: 401 }),
    ),
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

  it('keeps the remembered item highlighted on a detail page', () => {
    signedIn(true);
    localStorage.setItem(CURRENT_PAGE_KEY, 'search');
    renderPage(<NavBar />, { route: '/post/12' });
    expect(within(bottomBar()).getByRole('link', { name: 'Search' })).toHaveAttribute('aria-current', 'page');
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

  it('asks a guest to sign in before choosing', async () => {
    signedIn(false);
    renderPage(<NavBar />, { route: '/home?feed=listened-to' });
    const user = userEvent.setup();
    // The session check has answered "nobody" (the bar offers to sign in).
    await within(sideBar()).findByRole('link', { name: 'Sign in' });
    await user.click(within(bottomBar()).getByRole('button', { name: 'Add post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to share' });
    expect(within(dialog).queryByRole('link', { name: /Audio/ })).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect(currentLocation()).toBe('/sign-in');
    expect(screen.queryByRole('dialog')).toBeNull();
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
  });
});
