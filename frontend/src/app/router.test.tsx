import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { api, server } from '../test/server';
import { LocationProbe, currentLocation, testQueryClient } from '../test/render';
import { Providers } from './providers';
import { AppRoutes } from './router';

function renderAt(path: string) {
  server.use(
    http.get(api('/authorization/me'), () => HttpResponse.json({ detail: 'no' }, { status: 401 })),
    http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })),
  );
  render(
    <Providers client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
}

describe('routes', () => {
  it('/ redirects to /home', async () => {
    renderAt('/');
    expect(await screen.findByRole('tab', { name: 'For you' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/home');
  });

  it('an unknown address shows Not found with a link home', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/home');
  });

  it('/settings sends a signed-out visitor to /sign-in', async () => {
    renderAt('/settings');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
  });

  it('/sign-up exists', async () => {
    renderAt('/sign-up');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });

  it('/verify exists', async () => {
    renderAt('/verify?email=a%40b.co');
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
  });
});
