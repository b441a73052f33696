/**
 * Journeys through the sign-in page across the whole app: a session that ends under an
 * auth-required page (spec §4 Login, §8 Profile and Blocked list) says why, signing in brings the
 * person back with the profile edit they had typed; deleting the account says so; a dead token is
 * forgotten.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../test/server';
import { renderApp } from '../test/app';
import { currentLocation } from '../test/render';
import { ADA } from '../test/session';
import { getToken, storeToken } from '../lib/token-storage';

const profile = {
  id: ADA.id,
  name: 'Ada',
  login: 'ada',
  description: 'Composer of engines',
  avatar_url: null,
  tag_id: null,
  email: ADA.email,
  stats: { posts: 0, listeners: 0, listenedTo: 0 },
};

const NOW = new Date().toISOString();

/**
 * A server where Ada's session works until `expire()`; signing in with the form starts a new
 * one. Returns the profile edits that reached it.
 */
function backend() {
  let valid = true;
  const saved: unknown[] = [];
  storeToken('first-token');
  server.use(
    http.get(api('/authorization/session'), () => HttpResponse.json({ user: valid ? ADA : null })),
    http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })),
    http.get(api('/posts/feed'), () => HttpResponse.json([])),
    http.get(api('/posts/listened-to'), () => HttpResponse.json([])),
    http.get(api('/posts/user/:id'), () => HttpResponse.json([])),
    http.get(api('/profile/me/profile'), () => HttpResponse.json(profile)),
    http.patch(api('/profile/me'), async ({ request }) => {
      if (!valid) return HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 });
      const body = await request.json();
      saved.push(body);
      return HttpResponse.json({ ...profile, ...(body as object) });
    }),
    http.get(api('/profiles/blocks'), () =>
      valid ? HttpResponse.json([]) : HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }),
    ),
    http.get(api('/authorization/sessions'), () =>
      valid
        ? HttpResponse.json([
            { id: 's1', device: 'Firefox on Linux', created_at: NOW, last_seen_at: NOW, current: true },
          ])
        : HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }),
    ),
    http.post(api('/authorization/password'), () =>
      valid ? HttpResponse.json({ message: 'Password changed' }) : HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }),
    ),
    http.post(api('/authorization/logindefault'), () => {
      valid = true;
      return HttpResponse.json({ access_token: 'second-token', token_type: 'bearer' });
    }),
  );
  return {
    saved,
    expire: () => {
      valid = false;
    },
  };
}

async function signInAgain(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('a session that expires under an auth-required page', () => {
  it('saving the profile edit: says so, and signing in brings back the page and what was typed', async () => {
    const server = backend();
    renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit profile' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Ada Draft');
    await user.clear(within(dialog).getByLabelText('Biography'));
    await user.type(within(dialog).getByLabelText('Biography'), 'Kept across sign-in');

    server.expire();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
    expect(screen.getByRole('alert')).toHaveTextContent('Session expired. Please sign in again.');
    expect(getToken()).toBeNull();

    await signInAgain(user);
    await waitFor(() => expect(currentLocation()).toBe('/profile'));
    const again = await screen.findByRole('dialog', { name: 'Edit profile' });
    expect(within(again).getByLabelText('Name')).toHaveValue('Ada Draft');
    expect(within(again).getByLabelText('Biography')).toHaveValue('Kept across sign-in');
    expect(within(again).getByRole('status')).toHaveTextContent('Your unsaved changes are back.');

    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.saved).toEqual([expect.objectContaining({ name: 'Ada Draft', description: 'Kept across sign-in' })]);
    expect(getToken()).toBe('second-token');
  });

  it('closing the edit drops the draft: the dialog does not come back on its own', async () => {
    backend();
    renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit profile' });
    await user.type(within(dialog).getByLabelText('Name'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sessionStorage.getItem('draft:edit-profile')).toBeNull();
  });

  it('the blocked list: the sign-in page says to sign in to view it, and signing in returns to Settings', async () => {
    const server = backend();
    renderApp('/settings');
    const user = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: /Blocked users/ });
    // Settings' other session-scoped call (the sessions list) must have answered before the
    // session ends, or its 401 may be the one that sends the person to sign in.
    expect(await screen.findByText('Firefox on Linux')).toBeInTheDocument();
    server.expire();
    await user.click(toggle);

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in to view blocked users');

    await signInAgain(user);
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('a dead token found by the session check: the guard says the session expired', async () => {
    backend().expire();
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Session expired. Please sign in again.');
  });

  it('a visitor who was never signed in is sent to sign in without a warning, and comes back after', async () => {
    const server = backend();
    server.expire();
    localStorage.clear();
    sessionStorage.clear();
    document.cookie = 'access_token=; path=/; max-age=0';
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await signInAgain(userEvent.setup());
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
  });
});

describe('a dead token on public pages', () => {
  it('is forgotten on the first 401 of the session check, and the nav bar offers Sign in', async () => {
    storeToken('dead-token');
    server.use(http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })));
    renderApp('/home');
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Sign in' })).toHaveLength(2));
    await waitFor(() => expect(getToken()).toBeNull());
  });
});

describe('after the Danger zone', () => {
  async function deleteAccount(answer: () => Response) {
    backend();
    server.use(http.delete(api('/authorization/me'), answer));
    renderApp('/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete account' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  }

  it('the sign-in page says the account was deleted', async () => {
    await deleteAccount(() => HttpResponse.json({ message: 'Account deleted' }));
    expect(screen.getByRole('status')).toHaveTextContent('Your account has been deleted.');
  });

  it('or that it could not be', async () => {
    await deleteAccount(() => HttpResponse.json({ detail: 'x' }, { status: 500 }));
    expect(screen.getByRole('alert')).toHaveTextContent('Your account could not be deleted.');
  });
});

describe('account security in Settings (issue 7)', () => {
  it('"Sign out everywhere": the sign-in page says every device was signed out', async () => {
    backend();
    server.use(http.post(api('/authorization/logout-all'), () => HttpResponse.json({ message: 'Signed out' })));
    renderApp('/settings');
    const user = userEvent.setup();
    expect(await screen.findByText('This device')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Sign out everywhere' })).getByRole('button', {
        name: 'Sign out everywhere',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You were signed out on every device.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('a session that ended before the password change: Session expired, and back to Settings after signing in', async () => {
    const server = backend();
    renderApp('/settings');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Password' });
    await user.type(within(section).getByLabelText('Current password'), 'Old!Passw0rd');
    await user.type(within(section).getByLabelText('New password'), 'N3w!Passw0rd');
    await user.type(within(section).getByLabelText('Confirm password'), 'N3w!Passw0rd');
    server.expire();
    await user.click(within(section).getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Session expired. Please sign in again.');
    await signInAgain(user);
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
  });
});
