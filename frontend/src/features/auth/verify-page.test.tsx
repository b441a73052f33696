import { describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { startCooldown } from './resend-cooldown';
import { VerifyPage } from './verify-page';

function renderVerify(route = '/verify?email=ada%40example.com') {
  return renderPage(<VerifyPage />, { route, path: '/verify' });
}

describe('VerifyPage', () => {
  it('shows the heading, the e-mail, the spam hint and the way back', () => {
    renderVerify();
    expect(screen.getByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText(/spam/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/sign-in');
    expect(screen.getByRole('button', { name: 'Resend Email' })).toBeEnabled();
  });

  it('without an e-mail it says so and cannot resend', () => {
    renderVerify('/verify');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No email address found. Please try signing up again.',
    );
    expect(screen.getByRole('button', { name: 'Resend Email' })).toBeDisabled();
  });

  it('resends, confirms, then waits 3 minutes counting down each second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let body: unknown;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post(api('/authorization/resend-verification'), async ({ request }) => {
        body = await request.json();
        await gate;
        return HttpResponse.json({ message: 'sent' });
      }),
    );
    renderVerify();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Verification email sent successfully!');
    expect(body).toEqual({ email: 'ada@example.com' });
    expect(screen.getByRole('button', { name: /^Wait [23]:[0-5]\d$/ })).toBeDisabled();

    await act(async () => {
      vi.advanceTimersByTime(62_000);
    });
    expect(screen.getByRole('button', { name: /^Wait 1:5\d$/ })).toBeDisabled();

    await act(async () => {
      vi.advanceTimersByTime(120_000);
    });
    expect(screen.getByRole('button', { name: 'Resend Email' })).toBeEnabled();
  });

  it('remembers a running cooldown across visits', () => {
    startCooldown('ada@example.com', Date.now() - 19_000);
    renderVerify();
    expect(screen.getByRole('button', { name: /^Wait 2:4\d$/ })).toBeDisabled();
  });

  it("shows the server's throttle detail as is and counts down the same wait", async () => {
    server.use(
      http.post(api('/authorization/resend-verification'), () =>
        HttpResponse.json({ detail: 'Please wait 2:41 before requesting another email.' }, { status: 429 }),
      ),
    );
    renderVerify();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please wait 2:41 before requesting another email.',
    );
    expect(screen.getByRole('button', { name: /^Wait 2:4[01]$/ })).toBeDisabled();
  });

  it('falls back to the generic failure message', async () => {
    server.use(
      http.post(api('/authorization/resend-verification'), () => new HttpResponse(null, { status: 500 })),
    );
    renderVerify();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to resend email. Please try again.');
    expect(screen.getByRole('button', { name: 'Resend Email' })).toBeEnabled();
  });

  it('reports a network failure', async () => {
    server.use(http.post(api('/authorization/resend-verification'), () => HttpResponse.error()));
    renderVerify();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error. Please try again.');
  });
});
