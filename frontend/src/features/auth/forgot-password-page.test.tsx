import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ForgotPasswordPage } from './forgot-password-page';

function renderForgot(state?: unknown) {
  return renderPage(<ForgotPasswordPage />, {
    route: { pathname: '/forgot-password', state },
    path: '/forgot-password',
  });
}

function resetServer(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('/authorization/password-reset'), async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

async function send(email: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  return user;
}

describe('ForgotPasswordPage', () => {
  it('asks for the e-mail in the sign-in words, and sends nothing until it is valid', async () => {
    const bodies = resetServer(() => HttpResponse.json({ message: 'x' }));
    renderForgot();
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    const user = await send('');
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'ada@');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([]);
  });

  it("sends the trimmed address, reads 'Sending...' meanwhile, then shows the server's message", async () => {
    let answer: () => void = () => {};
    const bodies = resetServer(async () => {
      await new Promise<void>((r) => (answer = r));
      return HttpResponse.json({ message: 'If that address has an account, a link is on its way.' });
    });
    renderForgot();
    await send(' ada@example.com ');
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    answer();
    expect(await screen.findByRole('status')).toHaveTextContent('If that address has an account, a link is on its way.');
    expect(bodies).toEqual([{ email: 'ada@example.com' }]);
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });

  it('says the same words of its own when the server gives none', async () => {
    resetServer(() => HttpResponse.json({}));
    renderForgot();
    await send('ada@example.com');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account uses this address, we sent a link to reset its password. Check your inbox.',
    );
  });

  it("shows the server's detail on 429 and on 400", async () => {
    resetServer(() =>
      HttpResponse.json(
        { detail: 'Too many reset requests. Please try again later.' },
        { status: 429, headers: { 'Retry-After': '600' } },
      ),
    );
    renderForgot();
    const user = await send('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many reset requests. Please try again later.');

    resetServer(() => HttpResponse.json({ detail: 'Please enter a valid email address' }, { status: 400 }));
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address'));
  });

  it('reports a network failure', async () => {
    server.use(http.post(api('/authorization/password-reset'), () => HttpResponse.error()));
    renderForgot();
    await send('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('starts with the address typed on the sign-in page, and leads back to it', () => {
    renderForgot({ email: 'ada@example.com' });
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/sign-in');
  });
});
