import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { BASE_PATH } from '../../lib/config';
import { getToken, storeToken } from '../../lib/token-storage';
import { forgetSession } from '../../lib/session';
import { QueryClient } from '@tanstack/react-query';
import { ForgotPasswordPage } from './forgot-password-page';
import { SIGN_IN_MESSAGES, SignInPage } from './sign-in-page';
import { SECOND_FACTOR_REQUIRED } from './two-factor-step';
import { fakeWebAuthn } from '../../test/webauthn';

function providersAre(google: boolean) {
  server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google })));
}

function renderSignIn(route = '/sign-in') {
  providersAre(true);
  return renderPage(<SignInPage />, { route, path: '/sign-in' });
}

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('SignInPage', () => {
  it('shows the spec validation messages under the fields', async () => {
    renderSignIn();
    await fillAndSubmit('', '');
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('checks the e-mail shape and the 6-character minimum', async () => {
    renderSignIn();
    await fillAndSubmit('ada@', '12345');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers "Forgot password?" beside the password, carrying the e-mail typed so far', async () => {
    providersAre(true);
    renderPage(<SignInPage />, {
      route: '/sign-in',
      path: '/sign-in',
      routes: { '/forgot-password': <ForgotPasswordPage /> },
    });
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link).toHaveAttribute('href', '/forgot-password');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), ' ada@example.com');
    await user.click(link);
    expect(currentLocation()).toBe('/forgot-password');
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('tabs from the e-mail to the password, and only then to "Forgot password?"', async () => {
    renderSignIn();
    const user = userEvent.setup();
    const password = screen.getByLabelText('Password');
    const name = (el: Element | null) =>
      el === password ? 'Password' : (el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '');
    await user.click(screen.getByLabelText('Email'));
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await user.tab();
      order.push(name(document.activeElement));
    }
    expect(order[0]).toBe('Password');
    expect(order.slice(1)).toContain('Forgot password?');
  });

  it('toggles the password between hidden and shown', async () => {
    renderSignIn();
    const user = userEvent.setup();
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('stores the token and goes to /home after signing in', async () => {
    let body: unknown;
    let resolve: () => void = () => {};
    const answered = new Promise<void>((r) => (resolve = r));
    server.use(
      http.post(api('/authorization/logindefault'), async ({ request }) => {
        body = await request.json();
        await answered;
        return HttpResponse.json({ access_token: 'jwt-1', token_type: 'bearer' });
      }),
      http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
    );
    renderSignIn();
    await fillAndSubmit(' ada@example.com ', 'secret1');
    expect(screen.getByRole('button', { name: 'Signing In...' })).toBeDisabled();
    resolve();
    await waitFor(() => expect(currentLocation()).toBe('/home'));
    expect(body).toEqual({ email: 'ada@example.com', password: 'secret1' });
    expect(getToken()).toBe('jwt-1');
  });

  it('signs in with a passkey: no address or password, the browser’s answer sent with the ceremony', async () => {
    const answer = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {}, clientExtensionResults: {} };
    const options = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' };
    let finished: unknown;
    server.use(
      http.post(api('/authorization/passkey-sign-in/options'), () => HttpResponse.json({ ceremony: '5', public_key: options })),
      http.post(api('/authorization/passkey-sign-in'), async ({ request }) => {
        finished = await request.json();
        return HttpResponse.json({ access_token: 'jwt-passkey', token_type: 'bearer' });
      }),
      http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
    );
    const browser = fakeWebAuthn({ answer });
    try {
      renderSignIn();
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
      await waitFor(() => expect(currentLocation()).toBe('/home'));
      expect(browser.asked).toEqual([{ kind: 'get', options: { publicKey: { parsed: options } } }]);
      expect(finished).toEqual({ ceremony: '5', credential: answer });
      expect(getToken()).toBe('jwt-passkey');
    } finally {
      browser.restore();
    }
  });

  it('says so when the passkey dialog is closed, and offers no passkey where the browser has none', async () => {
    server.use(
      http.post(api('/authorization/passkey-sign-in/options'), () => HttpResponse.json({ ceremony: '5', public_key: {} })),
    );
    const browser = fakeWebAuthn({ answer: {}, cancel: true });
    try {
      const { unmount } = renderSignIn();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
      expect(await screen.findByText(SIGN_IN_MESSAGES.passkeyCancelled)).toBeInTheDocument();
      expect(currentLocation()).toBe('/sign-in');
      unmount();
    } finally {
      browser.restore();
    }
    renderSignIn();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });

  it('asks for the two-factor code after a right password, then sends it with the same call', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(api('/authorization/logindefault'), async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        bodies.push(body);
        if (body.code === undefined) return HttpResponse.json({ detail: SECOND_FACTOR_REQUIRED }, { status: 401 });
        if (body.code === 'abcd-efgh-jkmn' || body.code === '246810') {
          return HttpResponse.json({ access_token: 'jwt-2fa', token_type: 'bearer' });
        }
        return HttpResponse.json({ detail: 'Incorrect two-factor code.' }, { status: 401 });
      }),
      http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
    );
    renderSignIn();
    const user = await fillAndSubmit('ada@example.com', 'secret1');
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Incorrect two-factor code.')).toBeInTheDocument();
    expect(getToken()).toBeNull();
    // A recovery code instead.
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-jkmn');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(currentLocation()).toBe('/home'));
    expect(getToken()).toBe('jwt-2fa');
    expect(bodies).toEqual([
      { email: 'ada@example.com', password: 'secret1' },
      { email: 'ada@example.com', password: 'secret1', code: '111111' },
      { email: 'ada@example.com', password: 'secret1', code: 'abcd-efgh-jkmn' },
    ]);
  });

  it('goes back from the code step to the password', async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () =>
        HttpResponse.json({ detail: SECOND_FACTOR_REQUIRED }, { status: 401 }),
      ),
    );
    renderSignIn();
    const user = await fillAndSubmit('ada@example.com', 'secret1');
    await screen.findByLabelText('Authentication code');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Password')).toHaveValue('secret1');
    expect(screen.queryByText(SECOND_FACTOR_REQUIRED)).not.toBeInTheDocument();
  });

  it("shows the server's detail when sign-in is refused", async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () =>
        HttpResponse.json({ detail: 'Incorrect email or password' }, { status: 401 }),
      ),
    );
    renderSignIn();
    await fillAndSubmit('ada@example.com', 'wrong-pass');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(currentLocation()).toBe('/sign-in');
  });

  it('offers the verification page when the e-mail is not verified yet', async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () =>
        HttpResponse.json(
          { detail: 'Please verify your email address before signing in. Check your inbox.' },
          { status: 403 },
        ),
      ),
    );
    renderSignIn();
    await fillAndSubmit('ada@example.com', 'secret1');
    const link = await screen.findByRole('link', { name: 'Resend the verification email' });
    expect(link).toHaveAttribute('href', '/verify?email=ada%40example.com');
  });

  it('says a suspended account is suspended, with no offer to verify', async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () =>
        HttpResponse.json({ detail: 'This account is suspended' }, { status: 403 }),
      ),
    );
    renderSignIn();
    await fillAndSubmit('ada@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is suspended');
    expect(screen.queryByRole('link', { name: 'Resend the verification email' })).toBeNull();
  });

  it('says a suspended account is suspended after Google sign-in too', async () => {
    renderSignIn('/sign-in?error=suspended');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is suspended');
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it('falls back to {message}, then to Login failed', async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () =>
        HttpResponse.json({ message: 'Try later' }, { status: 429 }),
      ),
    );
    renderSignIn();
    const user = await fillAndSubmit('ada@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Try later');

    server.use(
      http.post(api('/authorization/logindefault'), () => new HttpResponse(null, { status: 500 })),
    );
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Login failed$/));
  });

  it('reports a missing token', async () => {
    server.use(http.post(api('/authorization/logindefault'), () => HttpResponse.json({})));
    renderSignIn();
    await fillAndSubmit('ada@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login failed: No access token received',
    );
  });

  it('reports a token that could not be stored', async () => {
    server.use(
      http.post(api('/authorization/logindefault'), () => HttpResponse.json({ access_token: 'x' })),
    );
    renderSignIn();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('full');
    });
    vi.spyOn(document, 'cookie', 'set').mockImplementation(() => {});
    await fillAndSubmit('ada@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login successful but token storage failed. Please try again.',
    );
  });

  it('reports a network failure', async () => {
    server.use(http.post(api('/authorization/logindefault'), () => HttpResponse.error()));
    renderSignIn();
    await fillAndSubmit('ada@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('says the e-mail was verified and returns the address to /sign-in', async () => {
    renderSignIn('/sign-in#verified=true');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your email has been verified. You can now sign in.',
    );
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(screen.getByRole('status')).toHaveTextContent('Your email has been verified.');
  });

  it('says when the verification link was bad', async () => {
    renderSignIn('/sign-in#verified=false');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This verification link is invalid or has expired.',
    );
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it('says when Google sign-in failed', async () => {
    renderSignIn('/sign-in?error=google');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Google sign-in failed. Please try again.',
    );
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it('sends the browser to Google sign-in with the sign-in page as state', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign, origin: 'http://localhost:3000' });
    renderSignIn();
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(assign).toHaveBeenCalledWith(
      `http://api.selfsound.test/auth/login?state=${encodeURIComponent(
        `http://localhost:3000${BASE_PATH}/sign-in`,
      )}&mobile=false&ios=false`,
    );
  });

  it('disables Google sign-in when the server has it switched off', async () => {
    server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })));
    renderPage(<SignInPage />, { route: '/sign-in', path: '/sign-in' });
    expect(await screen.findByText('Google sign-in is not set up on this server.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
  });

  it('guest mode clears the tokens, ends the session and goes to /home', async () => {
    storeToken('old-token');
    let auth: string | null = null;
    server.use(
      http.post(api('/auth/logout'), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    renderSignIn();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guest mode' }));
    await waitFor(() => expect(currentLocation()).toBe('/home'));
    expect(getToken()).toBeNull();
    expect(auth).toBe('Bearer old-token');
  });

  it('guest mode still goes home when there was no session to end', async () => {
    server.use(
      http.post(api('/auth/logout'), () => HttpResponse.json({ detail: 'no' }, { status: 401 })),
    );
    renderSignIn();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guest mode' }));
    await waitFor(() => expect(currentLocation()).toBe('/home'));
  });

  it('guest mode reports a server it cannot reach', async () => {
    server.use(http.post(api('/auth/logout'), () => HttpResponse.error()));
    renderSignIn();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guest mode' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Guest login error. Please try again.');
  });
});

describe('SignInPage and where it leads', () => {
  /** The sign-in page reached with router state, as the guard or Settings send people there. */
  function renderWithState(state: unknown) {
    providersAre(false);
    return renderPage(<SignInPage />, { route: { pathname: '/sign-in', state }, path: '/sign-in' });
  }

  it('sends someone already signed in home instead of showing the form', async () => {
    signedInAs(ADA);
    renderSignIn();
    await waitFor(() => expect(currentLocation()).toBe('/home'));
  });

  it('sends someone already signed in back where they came from', async () => {
    signedInAs(ADA);
    renderWithState({ from: '/settings' });
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
  });

  it('keeps the form for someone signed in who needs another account, then returns', async () => {
    server.use(http.post(api('/authorization/logindefault'), () => HttpResponse.json({ access_token: 'jwt' })));
    signedInAs(ADA);
    renderWithState({ from: '/admin/a', notice: 'Admin access required', anotherAccount: true });
    expect(screen.getByRole('alert')).toHaveTextContent('Admin access required');
    await new Promise((r) => setTimeout(r, 50));
    expect(currentLocation()).toBe('/sign-in');
    await fillAndSubmit('root@example.com', 'secret1');
    await waitFor(() => expect(currentLocation()).toBe('/admin/a'));
  });

  it('shows why the visitor was sent here, and returns there after signing in', async () => {
    server.use(http.post(api('/authorization/logindefault'), () => HttpResponse.json({ access_token: 'jwt' })));
    renderWithState({ from: '/profile?x=1', notice: 'Session expired. Please sign in again.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Session expired. Please sign in again.');
    signedInAs(ADA);
    await fillAndSubmit('ada@example.com', 'secret1');
    await waitFor(() => expect(currentLocation()).toBe('/profile?x=1'));
  });

  it('says the account was deleted, as news rather than a warning', () => {
    renderWithState({ notice: 'Your account has been deleted.', tone: 'info' });
    expect(screen.getByRole('status')).toHaveTextContent('Your account has been deleted.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says this tab's farewell rather than the 'Session expired' of a request that ended with it", () => {
    forgetSession(new QueryClient(), { text: 'Your account has been deleted.', tone: 'info' });
    renderWithState({ notice: 'Session expired. Please sign in again.' });
    expect(screen.getByRole('status')).toHaveTextContent('Your account has been deleted.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('never returns to an address outside the app', async () => {
    server.use(http.post(api('/authorization/logindefault'), () => HttpResponse.json({ access_token: 'jwt' })));
    renderWithState({ from: 'https://evil.example/phish' });
    signedInAs(ADA);
    await fillAndSubmit('ada@example.com', 'secret1');
    await waitFor(() => expect(currentLocation()).toBe('/home'));
  });

  it('carries the return path through Google sign-in as ?next=', async () => {
    server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: true })));
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign, origin: 'http://localhost:3000' });
    renderPage(<SignInPage />, { route: { pathname: '/sign-in', state: { from: '/settings' } }, path: '/sign-in' });
    const button = await screen.findByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    expect(assign).toHaveBeenCalledWith(
      `http://api.selfsound.test/auth/login?state=${encodeURIComponent(
        `http://localhost:3000${BASE_PATH}/sign-in?next=${encodeURIComponent('/settings')}`,
      )}&mobile=false&ios=false`,
    );
  });
});
