import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { TwoFactorSection } from './two-factor-section';

const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${'mnpqrstuvw'[i]}${i + 2}`);

/** A server holding one account's two-factor state, as the real one answers. */
function twoFactorServer(start: { enabled: boolean }) {
  const state = { enabled: start.enabled, left: start.enabled ? 10 : 0 };
  const calls: Array<{ path: string; body: unknown }> = [];
  const record = async (path: string, request: Request) => {
    const body = (await request.json()) as { password?: string; code?: string };
    calls.push({ path, body });
    return body;
  };
  server.use(
    http.get(api('/authorization/two-factor'), () =>
      HttpResponse.json({ enabled: state.enabled, recovery_codes_left: state.left }),
    ),
    http.post(api('/authorization/two-factor/setup'), async ({ request }) => {
      const { password } = await record('setup', request);
      if (password !== 'Sound#Check9') {
        return HttpResponse.json({ detail: 'Current password is incorrect' }, { status: 400 });
      }
      return HttpResponse.json({
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/SelfSound:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      });
    }),
    http.post(api('/authorization/two-factor/enable'), async ({ request }) => {
      const { code } = await record('enable', request);
      if (code !== '246810') {
        return HttpResponse.json({ detail: 'That code is not right.' }, { status: 400 });
      }
      Object.assign(state, { enabled: true, left: 10 });
      return HttpResponse.json({ recovery_codes: CODES });
    }),
    http.post(api('/authorization/two-factor/disable'), async ({ request }) => {
      const { code } = await record('disable', request);
      if (code !== '135791') return HttpResponse.json({ detail: 'That code is not right.' }, { status: 400 });
      Object.assign(state, { enabled: false, left: 0 });
      return HttpResponse.json({ message: 'Two-factor sign-in is off' });
    }),
  );
  return calls;
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<TwoFactorSection />, { route: '/settings', path: '/settings' });
}

describe('TwoFactorSection', () => {
  it('sets up with the password, a QR code or the key, and a first code; then shows the recovery codes once', async () => {
    const calls = twoFactorServer({ enabled: false });
    renderSection();
    const section = await screen.findByRole('region', { name: /Two-factor sign-in/ });
    expect(await within(section).findByText('Off')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Set up two-factor sign-in' }));
    await user.type(within(section).getByLabelText('Your password'), 'wrong');
    await user.click(within(section).getByRole('button', { name: 'Continue' }));
    expect(await within(section).findByText('Current password is incorrect')).toBeInTheDocument();
    await user.clear(within(section).getByLabelText('Your password'));
    await user.type(within(section).getByLabelText('Your password'), 'Sound#Check9');
    await user.click(within(section).getByRole('button', { name: 'Continue' }));

    const qr = await within(section).findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(within(section).getByTestId('two-factor-key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    expect(within(section).getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('Enter the 6-digit code the app shows'), '111111');
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    expect(await within(section).findByText('That code is not right.')).toBeInTheDocument();
    await user.clear(within(section).getByLabelText('Enter the 6-digit code the app shows'));
    await user.type(within(section).getByLabelText('Enter the 6-digit code the app shows'), '246810');
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));

    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(within(section).getByText(/They are not shown again/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(within(section).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(await within(section).findByText('On')).toBeInTheDocument();
    expect(within(section).getByText('10 recovery codes left')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['setup', 'setup', 'enable', 'enable']);
  });

  it('turns off only with a code, and says when the code is wrong', async () => {
    const calls = twoFactorServer({ enabled: true });
    renderSection();
    const section = await screen.findByRole('region', { name: /Two-factor sign-in/ });
    const user = userEvent.setup();
    await user.click(await within(section).findByRole('button', { name: 'Turn off' }));
    const field = within(section).getByLabelText('Code from your app, or a recovery code');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(within(section).getByText('Enter a code from your app, or a recovery code')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.type(field, '000000');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByText('That code is not right.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '135791');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(within(section).getByText('Off')).toBeInTheDocument();
  });
});
