/** /notifications in the real route table: behind the guard, and a session that ends under it. */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../test/app';
import { api, server } from '../test/server';
import { currentLocation } from '../test/render';
import { ADA, signedInAs } from '../test/session';

function renderAt(path: string) {
  server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })));
  renderApp(path);
}

describe('/notifications', () => {
  it('sends a signed-out visitor to /sign-in', async () => {
    signedInAs(null);
    renderAt('/notifications');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
  });

  it('shows the signed-in viewer their notifications', async () => {
    signedInAs(ADA);
    server.use(http.get(api('/notifications'), () => HttpResponse.json([])));
    renderAt('/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });

  it("on a 401 goes to /sign-in saying 'Session expired. Please sign in again.'", async () => {
    signedInAs(ADA);
    server.use(http.get(api('/notifications'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })));
    renderAt('/notifications');
    expect(await screen.findByText('Session expired. Please sign in again.')).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
  });
});
