import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { getToken } from '../../lib/token-storage';
import { PasswordSection } from './password-section';

const OLD = 'Old!Passw0rd';
const NEW = 'N3w!Passw0rd';

function renderSection() {
  signedInAs(ADA);
  return renderPage(<PasswordSection />, { route: '/settings', path: '/settings' });
}

function changeServer(answer: () => Response | Promise<Response>) {
  const calls: Array<{ body: unknown; auth: string | null }> = [];
  server.use(
    http.post(api('/authorization/password'), async ({ request }) => {
      calls.push({ body: await request.json(), auth: request.headers.get('authorization') });
      return answer();
    }),
  );
  return calls;
}

async function fill(current: string, password: string, confirmation = password) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText('Current password'), current);
  if (password) await user.type(screen.getByLabelText('New password'), password);
  if (confirmation) await user.type(screen.getByLabelText('Confirm password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  return user;
}

describe('PasswordSection', () => {
  it('asks for the current password, a new one with the sign-up checklist, and its confirmation', async () => {
    renderSection();
    const section = screen.getByRole('region', { name: 'Password' });
    expect(within(section).getByLabelText('Current password')).toHaveAttribute('autocomplete', 'current-password');
    expect(within(section).getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    await userEvent.setup().type(within(section).getByLabelText('New password'), 'Abcdef1!xyz9');
    expect(within(section).getByRole('list', { name: 'Password requirements' })).toBeInTheDocument();
    expect(within(section).getByText('Strong password')).toBeInTheDocument();
  });

  it('checks the three fields before sending anything', async () => {
    const calls = changeServer(() => HttpResponse.json({}));
    renderSection();
    const user = await fill('', '', '');
    expect(screen.getByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'Ab1!');
    await user.type(screen.getByLabelText('Confirm password'), 'Ab1?');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("sends both passwords with the session's token, reads 'Saving...', then says so in a toast and clears the form", async () => {
    let answer: () => void = () => {};
    const calls = changeServer(async () => {
      await new Promise<void>((r) => (answer = r));
      return HttpResponse.json({ message: 'Password changed' });
    });
    renderSection();
    await fill(OLD, NEW);
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer();
    expect(await screen.findByTestId('toast')).toHaveTextContent('Password changed. Your other devices were signed out.');
    expect(calls).toEqual([{ body: { current_password: OLD, new_password: NEW }, auth: 'Bearer test-token' }]);
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm password')).toHaveValue('');
    expect(screen.queryByText('Password is required')).toBeNull();
    // This device stays signed in.
    expect(getToken()).toBe('test-token');
  });

  it("puts 'Current password is incorrect' under the current password", async () => {
    changeServer(() => HttpResponse.json({ detail: 'Current password is incorrect' }, { status: 400 }));
    renderSection();
    const user = await fill('Wrong!Pass1', NEW);
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    const current = screen.getByLabelText('Current password');
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('New password')).not.toHaveAttribute('aria-invalid');
    // Typing again clears the server's word.
    await user.type(current, 'x');
    expect(screen.queryByText('Current password is incorrect')).toBeNull();
  });

  it.each([
    'Password must include an uppercase letter, a lowercase letter, a number and a special character',
    'This password is too common. Please choose a less common one.',
  ])('puts a password-rule detail under the new password: %s', async (detail) => {
    changeServer(() => HttpResponse.json({ detail }, { status: 400 }));
    renderSection();
    await fill(OLD, NEW);
    expect(await screen.findByText(detail)).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('an account without a password is told how to set one', async () => {
    changeServer(() =>
      HttpResponse.json(
        {
          detail:
            'This account has no password yet. Use “Forgot password?” on the sign-in page to set one.',
        },
        { status: 400 },
      ),
    );
    renderSection();
    await fill(OLD, NEW);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This account has no password yet.');
    expect(within(alert).getByRole('link', { name: 'Set a password by e-mail' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it("shows a 429's detail above the form", async () => {
    changeServer(() =>
      HttpResponse.json({ detail: 'Too many attempts. Please try again later.' }, { status: 429 }),
    );
    renderSection();
    await fill(OLD, NEW);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
    expect(screen.getByRole('button', { name: 'Change password' })).toBeEnabled();
  });

  it('reports a network failure', async () => {
    server.use(http.post(api('/authorization/password'), () => HttpResponse.error()));
    renderSection();
    await fill(OLD, NEW);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('a 401 ends the stored session (the guard then sends the visitor to sign in)', async () => {
    changeServer(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    const { queryClient } = renderSection();
    await fill(OLD, NEW);
    await waitFor(() => expect(getToken()).toBeNull());
    expect(queryClient.getQueryData(['session', 'me'])).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
