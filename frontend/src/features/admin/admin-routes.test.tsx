/** The panel through the app's real route table: the guard, the redirects, the sign-in page. */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderApp } from '../../test/app';
import { currentLocation } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { getToken } from '../../lib/token-storage';
import { ROOT } from './test-fixtures';

function adminServer(answer: () => Response) {
  server.use(
    http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })),
    http.get(api('/admin/analytics'), answer),
    http.get(api('/admin/analytics/daily'), answer),
    http.get(api('/admin/reports'), answer),
  );
}

describe('/admin', () => {
  it('goes on to /admin/a, with the panel navigation marking Analytics', async () => {
    adminServer(() => HttpResponse.json([]));
    signedInAs(ROOT);
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/admin/a');
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(nav).toContainElement(screen.getByRole('link', { name: 'Analytics' }));
    expect(screen.getByRole('link', { name: 'Analytics' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Complaints' })).toHaveAttribute('href', '/admin/c');
  });

  it('sends a signed-out visitor to sign in (the guard)', async () => {
    adminServer(() => HttpResponse.json([]));
    renderApp('/admin/c');
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it("tells a signed-in non-admin 'Admin access required' where they are, with a way home", async () => {
    let adminCalls = 0;
    adminServer(() => {
      adminCalls += 1;
      return HttpResponse.json({ detail: 'Admin access required' }, { status: 403 });
    });
    signedInAs(ADA);
    renderApp('/admin/c');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin access required' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/admin/c');
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/home');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    expect(adminCalls).toBe(0);
    expect(getToken()).not.toBeNull();
    // Someone with an admin account too can sign in with it from here, and comes back.
    await userEvent.click(screen.getByRole('link', { name: 'Sign in as an admin' }));
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Admin access required');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it("says 'Admin access required' in place when the server refuses an admin's session", async () => {
    // The role was taken away after the session check: the server's 403 decides.
    adminServer(() => HttpResponse.json({ detail: 'Admin access required' }, { status: 403 }));
    signedInAs(ROOT);
    renderApp('/admin/a');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin access required' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 100));
    expect(currentLocation()).toBe('/admin/a');
  });

  it("ends the stored session on a 401 and says 'Authentication required'", async () => {
    adminServer(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    signedInAs(ROOT);
    renderApp('/admin/c');
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Authentication required');
    expect(getToken()).toBeNull();
  });
});
