import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { fakeWebAuthn, type FakeWebAuthn } from '../../test/webauthn';
import { PASSKEY_MESSAGES, PasskeysSection } from './passkeys-section';

const ANSWER = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {}, clientExtensionResults: {} };
const OPTIONS = { rp: { id: 'localhost', name: 'SelfSound' }, challenge: 'Y2hhbGxlbmdl' };

/** A server holding one account's passkeys, as the real one answers; the bodies it was sent. */
function passkeyServer() {
  const keys: Array<{ id: string; name: string; created_at: string; last_used_at: string | null }> = [];
  const sent: Array<{ path: string; body: unknown }> = [];
  server.use(
    http.get(api('/authorization/passkeys'), () => HttpResponse.json(keys)),
    http.post(api('/authorization/passkeys/options'), async ({ request }) => {
      const body = (await request.json()) as { password: string };
      sent.push({ path: 'options', body });
      if (body.password !== 'Sound#Check9') {
        return HttpResponse.json({ detail: 'Current password is incorrect' }, { status: 400 });
      }
      return HttpResponse.json({ ceremony: '77', public_key: OPTIONS });
    }),
    http.post(api('/authorization/passkeys'), async ({ request }) => {
      const body = (await request.json()) as { name: string };
      sent.push({ path: 'add', body });
      const key = { id: '9', name: body.name, created_at: new Date().toISOString(), last_used_at: null };
      keys.push(key);
      return HttpResponse.json(key, { status: 201 });
    }),
    http.patch(api('/authorization/passkeys/9'), async ({ request }) => {
      const { name } = (await request.json()) as { name: string };
      Object.assign(keys[0] ?? {}, { name });
      return HttpResponse.json(keys[0]);
    }),
    http.delete(api('/authorization/passkeys/9'), () => {
      keys.splice(0, 1);
      return HttpResponse.json({ message: 'Passkey removed' });
    }),
  );
  return sent;
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<PasskeysSection />, { route: '/settings', path: '/settings' });
}

let browser: FakeWebAuthn | undefined;
afterEach(() => browser?.restore());

describe('PasskeysSection', () => {
  it('adds a passkey with the password again and a name, then renames and removes it', async () => {
    const sent = passkeyServer();
    browser = fakeWebAuthn({ answer: ANSWER });
    renderSection();
    const user = userEvent.setup();
    expect(await screen.findByText(PASSKEY_MESSAGES.none)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.type(screen.getByLabelText('Your password'), 'Wrong#Pass1');
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'My phone');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(browser.asked).toHaveLength(0);

    await user.clear(screen.getByLabelText('Your password'));
    await user.type(screen.getByLabelText('Your password'), 'Sound#Check9');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const item = await screen.findByRole('listitem');
    expect(item).toHaveTextContent('My phone');
    expect(item).toHaveTextContent('never used');
    // The browser was asked with the server's options; its answer went back with the ceremony.
    expect(browser.asked).toEqual([{ kind: 'create', options: { publicKey: { parsed: OPTIONS } } }]);
    expect(sent.at(-1)).toEqual({ path: 'add', body: { ceremony: '77', name: 'My phone', credential: ANSWER } });

    await user.click(within(item).getByRole('button', { name: 'Rename My phone' }));
    const field = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.type(field, 'Old phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Old phone')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Old phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove passkey' });
    expect(dialog).toHaveTextContent(PASSKEY_MESSAGES.confirmRemove('Old phone'));
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(PASSKEY_MESSAGES.none)).toBeInTheDocument();
  });

  it('says so when the browser dialog is closed, and when the browser has no passkeys', async () => {
    passkeyServer();
    browser = fakeWebAuthn({ answer: ANSWER, cancel: true });
    const { unmount } = renderSection();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await user.type(screen.getByLabelText('Your password'), 'Sound#Check9');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(PASSKEY_MESSAGES.cancelled)).toBeInTheDocument();
    unmount();

    browser.restore();
    browser = undefined;
    renderSection();
    expect(await screen.findByText(PASSKEY_MESSAGES.unsupported)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });
});
