import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { SignUpPage } from './sign-up-page';

function renderSignUp() {
  server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: true })));
  return renderPage(<SignUpPage />, { route: '/sign-up', path: '/sign-up' });
}

async function fill(values: { name?: string; email?: string; password?: string }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText('Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  return user;
}

const valid = { name: 'Ada', email: 'ada@example.com', password: 'Str0ng!Passw0rd' };

function answerSignUp(status: number, body: Record<string, unknown>) {
  server.use(http.post(api('/authorization/signup'), () => HttpResponse.json(body, { status })));
}

describe('SignUpPage', () => {
  it('shows the spec validation messages', async () => {
    renderSignUp();
    const user = await fill({ email: 'ada@', password: 'Ab1!xyz' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('cuts the name at 15 characters', async () => {
    renderSignUp();
    await fill({ name: 'Abcdefghijklmnopqrstu' });
    expect(screen.getByLabelText('Name')).toHaveValue('Abcdefghijklmno');
    expect(screen.getByText('15/15')).toBeInTheDocument();
  });

  it('ticks the checklist and names the strength while typing', async () => {
    renderSignUp();
    const user = await fill({ password: 'abcdef' });
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    const item = (label: string) => within(checklist).getByText(label).closest('li');
    expect(item('At least 6 characters')).toHaveAttribute('data-met', 'true');
    expect(item('A lowercase letter')).toHaveAttribute('data-met', 'true');
    expect(item('An uppercase letter')).toHaveAttribute('data-met', 'false');
    expect(screen.queryByText(/password$/, { selector: 'p' })).toBeNull();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Aa1!aab');
    expect(screen.getByText('Weak password')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'cdefghij');
    expect(screen.getByText('Strong password')).toBeInTheDocument();
  });

  it('creates the account, shows the message and goes to /verify after 2 s', async () => {
    let body: unknown;
    server.use(
      http.post(api('/authorization/signup'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          message: 'Account created. Check your inbox to verify your email.',
          email: 'ada@example.com',
        });
      }),
    );
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Account created. Check your inbox to verify your email.',
    );
    expect(body).toEqual({ email: 'ada@example.com', password: 'Str0ng!Passw0rd', name: 'Ada' });
    expect(currentLocation()).toBe('/sign-up');
    await waitFor(() => expect(currentLocation()).toBe('/verify?email=ada%40example.com'), {
      timeout: 3000,
    });
  });

  it('shows "Creating account..." while the request runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post(api('/authorization/signup'), async () => {
        await gate;
        return HttpResponse.json({ detail: 'Registration closed' }, { status: 400 });
      }),
    );
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration closed');
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeEnabled();
  });

  it('an existing verified account: sign in instead, and the e-mail field says so', async () => {
    answerSignUp(400, { detail: 'User already exists and is verified' });
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this email already exists. Please sign in instead.',
    );
    expect(screen.getByText('Account already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('an existing unverified account: the verification-sent notice, then /verify', async () => {
    answerSignUp(400, {
      detail: 'User already exists but is not verified. A new verification email has been sent.',
    });
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A verification email has been sent to your email address. Please check your inbox.',
    );
    await waitFor(() => expect(currentLocation()).toBe('/verify?email=ada%40example.com'), {
      timeout: 3000,
    });
  });

  it("puts the server's password rule on the password field", async () => {
    answerSignUp(400, { detail: 'Password must include a special character' });
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please check your password requirements.',
    );
    expect(screen.getByText('Password must include a special character')).toBeInTheDocument();
  });

  it('422: per-field messages and the general hint', async () => {
    answerSignUp(422, { detail: [{ loc: ['body', 'email'] }, { loc: ['body', 'name'] }] });
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check your input and try again');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Invalid name')).toBeInTheDocument();
  });

  it('500: Server error', async () => {
    answerSignUp(500, { detail: 'boom' });
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error. Please try again later.');
  });

  it('network failure', async () => {
    server.use(http.post(api('/authorization/signup'), () => HttpResponse.error()));
    renderSignUp();
    const user = await fill(valid);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('guest mode failure uses the sign-up wording', async () => {
    server.use(http.post(api('/auth/logout'), () => HttpResponse.error()));
    renderSignUp();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guest mode' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Guest mode error. Please try again.');
  });

  it('links to sign-in', () => {
    renderSignUp();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  });
});
