import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { getToken, storeToken } from '../../lib/token-storage';
import { fakePush } from '../../test/push';
import { ADA, signedInAs } from '../../test/session';
import { SettingsPage } from './settings-page';

/** Delete account, then the dialog's Delete (the app's own dialog, not window.confirm). */
async function confirmDeletion() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Delete account' }));
  await user.click(within(screen.getByRole('dialog', { name: 'Delete account' })).getByRole('button', { name: 'Delete' }));
}

function renderSettings() {
  return renderPage(<SettingsPage />, { route: '/settings', path: '/settings' });
}

describe('SettingsPage', () => {
  it('shows the Starter plan and a card leading to Premium', () => {
    renderSettings();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    const starter = screen.getByRole('article', { name: 'Starter' });
    expect(starter).toHaveTextContent('0 USD');
    expect(starter).toHaveTextContent('per month');
    expect(starter).toHaveTextContent('Free forever');
    const perks = within(starter).getAllByRole('listitem').map((li) => li.textContent);
    expect(perks).toEqual(['4 types of post', 'Tag role', 'Basic functionality']);
    expect(screen.getByRole('link', { name: /Premium/ })).toHaveAttribute('href', '/premium');
  });

  it('has Appearance and Playback after Subscription, and Password, Two-factor sign-in, Passkeys, Notifications on your devices, Sessions and Your data between Blocked users and Account', async () => {
    signedInAs(ADA);
    server.use(
      http.get(api('/authorization/sessions'), () => HttpResponse.json([])),
      http.get(api('/authorization/two-factor'), () => HttpResponse.json({ enabled: false, recovery_codes_left: 0 })),
      http.get(api('/account/data-export'), () => HttpResponse.json({ state: 'none' })),
      http.get(api('/authorization/passkeys'), () => HttpResponse.json([])),
      http.get(api('/account/push'), () => HttpResponse.json({ public_key: 'BAEC', devices: [] })),
    );
    renderSettings();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      'Subscription',
      'Appearance',
      'Playback',
      expect.stringContaining('Blocked users'),
      'Password',
      'Two-factor sign-in',
      'Passkeys',
      'Notifications on your devices',
      'Sessions',
      'Your data',
      'Account',
      'Danger zone',
    ]);
    expect(await screen.findByText('No active sessions')).toBeInTheDocument();
  });

  it('logs out: POST /auth/logout with the token, tokens cleared, then /sign-in', async () => {
    storeToken('tok');
    let auth: string | null = null;
    server.use(
      http.post(api('/auth/logout'), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    renderSettings();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(auth).toBe('Bearer tok');
    expect(getToken()).toBeNull();
  });

  it("ends this browser's push subscription when logging out", async () => {
    storeToken('tok');
    const browser = fakePush({ permission: 'granted', subscribed: true });
    server.use(http.post(api('/auth/logout'), () => HttpResponse.json({ message: 'Logged out' })));
    try {
      renderSettings();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
      await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
      await waitFor(() => expect(browser.unsubscribed).toBe(1));
      expect(browser.endpoint()).toBeNull();
    } finally {
      browser.restore();
    }
  });

  it('goes to /sign-in even when logging out fails', async () => {
    storeToken('tok');
    server.use(http.post(api('/auth/logout'), () => HttpResponse.error()));
    renderSettings();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(getToken()).toBeNull();
  });

  it('asks before deleting the account and does nothing when declined', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const deleted = vi.fn();
    server.use(http.delete(api('/authorization/me'), () => (deleted(), HttpResponse.json({}))));
    renderSettings();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete account' });
    expect(dialog).toHaveAccessibleDescription(
      'Are you sure you want to delete your account? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
    expect(deleted).not.toHaveBeenCalled();
    expect(currentLocation()).toBe('/settings');
  });

  it('deletes the account when confirmed, then /sign-in', async () => {
    storeToken('tok');
    const deleted = vi.fn();
    server.use(
      http.delete(api('/authorization/me'), () => {
        deleted();
        return HttpResponse.json({ message: 'Account deleted' });
      }),
    );
    renderSettings();
    await confirmDeletion();
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(deleted).toHaveBeenCalledOnce();
    expect(getToken()).toBeNull();
  });

  it('goes to /sign-in even when deleting fails', async () => {
    server.use(
      http.delete(api('/authorization/me'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })),
    );
    renderSettings();
    await confirmDeletion();
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });
});
