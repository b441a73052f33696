import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, Route, Routes } from 'react-router';
import { api, server } from '../test/server';
import { LocationProbe, testQueryClient } from '../test/render';
import { storeToken } from '../lib/token-storage';
import { Providers } from './providers';
import { RequireAuth } from './require-auth';

function renderGuarded() {
  render(
    <Providers client={testQueryClient()}>
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route element={<RequireAuth />}>
            <Route path="/settings" element={<h1>Secret settings</h1>} />
          </Route>
          <Route path="/sign-in" element={<h1>Sign in page</h1>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
}

describe('RequireAuth', () => {
  it('renders the page when the session check names someone, sending the stored token', async () => {
    storeToken('tok');
    let auth: string | null = null;
    let cacheControl: string | null = null;
    server.use(
      http.get(api('/authorization/session'), ({ request }) => {
        auth = request.headers.get('authorization');
        cacheControl = request.headers.get('cache-control');
        return HttpResponse.json({ user: { id: '1', name: 'Ada', login: 'ada', email: 'a@b.co' } });
      }),
    );
    renderGuarded();
    expect(await screen.findByRole('heading', { name: 'Secret settings' })).toBeInTheDocument();
    expect(auth).toBe('Bearer tok');
    expect(cacheControl).toMatch(/no-cache/);
  });

  it('sends a signed-out visitor to /sign-in', async () => {
    server.use(
      http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
    );
    renderGuarded();
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(screen.queryByText('Secret settings')).toBeNull();
  });

  it('sends the visitor to /sign-in when the server cannot be reached', async () => {
    server.use(http.get(api('/authorization/session'), () => HttpResponse.error()));
    renderGuarded();
    expect(await screen.findByRole('heading', { name: 'Sign in page' }, { timeout: 4000 })).toBeInTheDocument();
  });
});
