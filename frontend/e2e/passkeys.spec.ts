/**
 * Passkeys (issue 36) in Chromium with its virtual authenticator (CDP `WebAuthn`), against a
 * real server reached by a domain name (`localhost`: passkeys are tied to domains, never to an
 * IP address): one added in Settings with the password again, then signing in with it alone —
 * no address, password or two-factor code, though two-factor sign-in is on — then renamed and
 * removed, after which the authenticator's copy no longer signs in.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, createVerifiedUser, ownClientAddress, signInThroughAddress } from './support/accounts';
import { watchCsp } from './support/csp';
import { startServer } from './support/server';
import { totp } from './support/totp';

test('passkeys: added in Settings, then signing in with one alone, renamed and removed', async ({
  page,
  context,
  request,
  shot,
}, testInfo) => {
  test.setTimeout(90_000);
  const project = testInfo.project.name;
  const server = await startServer({ name: `passkeys-${project}`, host: 'localhost' });
  try {
    const csp = watchCsp(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const email = uniqueEmail('passkey', project);
    const token = await createVerifiedUser(request, server, email, 'Passkey Pia');
    await ownClientAddress(context);
    await signInThroughAddress(page, server.appUrl, token);
    await expect(page).toHaveURL(`${server.appUrl}/home`);

    // Added in Settings: the password again, a name, then the device's check.
    await page.goto(`${server.appUrl}/settings`);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText('No passkeys yet.')).toBeVisible();
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(section.getByLabel('Name')).toHaveValue(/^Chrome on /);
    await section.getByLabel('Your password').fill('Not#MyPassword1');
    await section.getByRole('button', { name: 'Continue' }).click();
    await expect(section.getByText('Current password is incorrect')).toBeVisible();
    await section.getByLabel('Your password').fill(PASSWORD);
    await section.getByLabel('Name').fill('Test laptop');
    await section.getByRole('button', { name: 'Continue' }).click();
    const passkeys = section.getByRole('listitem');
    await expect(passkeys).toHaveCount(1);
    await expect(passkeys.first()).toContainText('Test laptop');
    await expect(section.getByText(/^Added .+ · never used$/)).toBeVisible();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');
    await section.scrollIntoViewIfNeeded();
    await shot('passkeys-settings');

    // Two-factor sign-in on too, set up from its key as a phone would.
    const headers = { Authorization: `Bearer ${token}` };
    const setup = await request.post(`${server.url}/authorization/two-factor/setup`, { headers, data: { password: PASSWORD } });
    expect(setup.status(), await setup.text()).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const on = await request.post(`${server.url}/authorization/two-factor/enable`, { headers, data: { code: totp(secret) } });
    expect(on.status(), await on.text()).toBe(200);

    // Signed out, then in with the passkey alone: no address, password or code.
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
    await shot('passkeys-sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/app\/(home|settings)$/);
    await page.goto(`${server.appUrl}/settings`);
    await expect(section.getByText(/· last used just now$/)).toBeVisible();

    // The code step offers it too, after a right password.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByLabel('Authentication code')).toBeVisible();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL(/\/app\/(home|settings)$/);

    // Renamed in place, then removed.
    await page.goto(`${server.appUrl}/settings`);
    await section.getByRole('button', { name: 'Rename Test laptop' }).click();
    await section.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(passkeys.first()).toContainText('Work laptop');
    await section.getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByRole('dialog', { name: 'Remove passkey' }).getByRole('button', { name: 'Remove' }).click();
    await expect(section.getByText('No passkeys yet.')).toBeVisible();

    // The authenticator still holds it, but it no longer signs in.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByText(/This passkey is not registered with SelfSound/)).toBeVisible();
    await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
    expect(csp).toEqual([]);
  } finally {
    await server.stop();
  }
});
