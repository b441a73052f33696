import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../test/app';
import { api, server } from '../test/server';
import { currentLocation } from '../test/render';

function renderAt(path: string) {
  server.use(
    http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
    http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })),
    http.get(api('/posts/feed'), () => HttpResponse.json([])),
    http.get(api('/posts/listened-to'), () => HttpResponse.json([])),
    http.get(api('/posts/user/:id'), () => HttpResponse.json([])),
  );
  renderApp(path);
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

  it('/forgot-password is public', async () => {
    renderAt('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('/reset-password is public and takes its #token= out of the address', async () => {
    renderAt('/reset-password#token=abc');
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
    await waitFor(() => expect(currentLocation()).toBe('/reset-password'));
  });

  it('/search is public', async () => {
    server.use(http.get(api('/profiles/search'), () => HttpResponse.json([])));
    renderAt('/search');
    expect(await screen.findByPlaceholderText('Search')).toBeInTheDocument();
  });

  it('/profile sends a signed-out visitor to /sign-in', async () => {
    renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
  });

  it.each(['/user/7', '/profile/7', '/another-user-rofile?userId=7'])(
    '%s shows that user (the screen is loaded on demand)',
    async (path) => {
      server.use(
        http.get(api('/profiles/7'), () =>
          HttpResponse.json({ id: '7', name: 'Gus', login: 'gus', avatar_url: null, tag_id: null, stats: {} }),
        ),
        http.get(api('/profiles/7/stats'), () => HttpResponse.json({ posts: 0, listeners: 0, listened_to: 0 })),
      );
      renderAt(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Gus' })).toBeInTheDocument();
    },
  );
});
