import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { getToken, storeToken } from '../../lib/token-storage';
import { ResetPasswordPage, tokenFromHash } from './reset-password-page';
import { SignInPage } from './sign-in-page';

const GOOD = 'N3w!Passw0rd';

function renderReset(route = '/reset-password#token=reset-abc') {
  return renderPage(<ResetPasswordPage />, { route, path: '/reset-password' });
}

function confirmServer(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('/authorization/password-reset/confirm'), async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

async function fill(password: string, confirmation = password) {
  const user = userEvent.setup();
  if (password) await user.type(screen.getByLabelText('New password'), password);
  if (confirmation) await user.type(screen.getByLabelText('Confirm password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
  return user;
}

describe('tokenFromHash', () => {
  it('reads #token= and nothing else', () => {
    expect(tokenFromHash('#token=abc')).toBe('abc');
    expect(tokenFromHash('#x=1&token=a%2Bb')).toBe('a+b');
    expect(tokenFromHash('#token=')).toBeNull();
    expect(tokenFromHash('')).toBeNull();
  });
});

describe('ResetPasswordPage', () => {
  it('takes the token out of the address at once', async () => {
    renderReset('/reset-password#token=reset-abc');
    await waitFor(() => expect(currentLocation()).toBe('/reset-password'));
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
  });

  it('sends the token it read with the new password', async () => {
    const bodies = confirmServer(() => HttpResponse.json({ message: 'Password changed' }));
    renderReset();
    await waitFor(() => expect(currentLocation()).toBe('/reset-password'));
    await fill(GOOD);
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(bodies).toEqual([{ token: 'reset-abc', password: GOOD }]);
  });

  it('shows the sign-up checklist and strength meter for the new password', async () => {
    renderReset();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'Abcdef1!xyz9');
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    expect(checklist.querySelectorAll('[data-met="true"]')).toHaveLength(5);
    expect(screen.getByText('Strong password')).toBeInTheDocument();
  });

  it('checks the new password and its confirmation before sending', async () => {
    const bodies = confirmServer(() => HttpResponse.json({}));
    renderReset();
    const user = await fill('', '');
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'Ab1!');
    await user.type(screen.getByLabelText('Confirm password'), 'Ab1?');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it("reads 'Saving...' while saving", async () => {
    let answer: () => void = () => {};
    confirmServer(async () => {
      await new Promise<void>((r) => (answer = r));
      return HttpResponse.json({ message: 'ok' });
    });
    renderReset();
    await fill(GOOD);
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer();
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it("puts the server's password-rule detail under the new password", async () => {
    confirmServer(() =>
      HttpResponse.json({ detail: 'This password is too common. Please choose a less common one.' }, { status: 400 }),
    );
    renderReset();
    await fill(GOOD);
    expect(await screen.findByText('This password is too common. Please choose a less common one.')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Please check your password requirements.');
    expect(currentLocation()).toBe('/reset-password');
  });

  it('an expired link says so and offers a new one', async () => {
    confirmServer(() =>
      HttpResponse.json({ detail: 'This password reset link is invalid or has expired.' }, { status: 400 }),
    );
    renderReset();
    await fill(GOOD);
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired.');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('without a token, says the link is invalid and offers a new one', () => {
    renderReset('/reset-password');
    expect(screen.getByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired.');
    expect(screen.queryByRole('button', { name: 'Set new password' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('reports a network failure and keeps the form', async () => {
    server.use(http.post(api('/authorization/password-reset/confirm'), () => HttpResponse.error()));
    renderReset();
    await fill(GOOD);
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error. Please check your connection and try again.');
    expect(screen.getByRole('button', { name: 'Set new password' })).toBeEnabled();
  });
});

describe('after a successful reset', () => {
  function renderWithSignIn() {
    server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })));
    renderPage(<ResetPasswordPage />, {
      route: '/reset-password#token=reset-abc',
      path: '/reset-password',
      routes: { '/sign-in': <SignInPage /> },
    });
  }

  it('the sign-in page says the password was changed', async () => {
    confirmServer(() => HttpResponse.json({ message: 'Password changed' }));
    renderWithSignIn();
    await fill(GOOD);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password was changed. Sign in with your new password.');
  });

  it('a session of that account in this browser is over: forgotten, and the sign-in form shows', async () => {
    storeToken('old-session');
    let valid = true;
    server.use(
      http.get(api('/authorization/session'), () => HttpResponse.json({ user: valid ? ADA : null })),
    );
    confirmServer(() => {
      valid = false;
      return HttpResponse.json({ message: 'Password changed' });
    });
    renderWithSignIn();
    await fill(GOOD);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password was changed.');
    expect(getToken()).toBeNull();
  });

  it('still signed in to another account here: says it was changed and stays', async () => {
    signedInAs(ADA);
    confirmServer(() => HttpResponse.json({ message: 'Password changed' }));
    renderWithSignIn();
    await fill(GOOD);
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password was changed.');
    expect(currentLocation()).toBe('/reset-password');
    expect(getToken()).toBe('test-token');
  });
});
