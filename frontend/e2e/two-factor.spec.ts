/**
 * Two-factor sign-in (issue 36) in the browser against the real server: set up in Settings with
 * the password, the QR code and its key, and a first code computed from that key as a phone
 * would; the recovery codes shown once; the sign-in page's code step after the password; a
 * recovery code in place of the app; turned off with a code.
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, createVerifiedUser, ownClientAddress, signInThroughAddress } from './support/accounts';
import { watchCsp } from './support/csp';
import { totp } from './support/totp';

async function signInWithForm(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function logOut(page: Page, appUrl: string) {
  await page.goto(`${appUrl}/settings`);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(`${appUrl}/sign-in`);
}

/** Signed in: on /home, or back on Settings where the person logged out. */
const SIGNED_IN = /\/app\/(home|settings)$/;

test('two-factor sign-in: set up with a QR code, asked after the password, a recovery code in place of the app', async ({
  page,
  context,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('twofactor', testInfo.project.name);
  const token = await createVerifiedUser(request, server, email, 'Two Factor');
  await ownClientAddress(context);
  await signInThroughAddress(page, server.appUrl, token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  await page.goto(`${server.appUrl}/settings`);
  const section = page.getByRole('region', { name: /Two-factor sign-in/ });
  await expect(section.getByText('Off', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByLabel('Your password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  const qr = section.getByRole('img', { name: /QR code/ });
  await expect(qr).toBeVisible();
  // The QR code is drawn: an SVG of 200 px or more, with its modules.
  const drawn = await qr.evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
  expect(drawn.w).toBeGreaterThanOrEqual(200);
  expect(drawn.h).toBe(drawn.w);
  const key = ((await section.getByTestId('two-factor-key').textContent()) ?? '').replace(/\s/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await section.scrollIntoViewIfNeeded();
  await shot('two-factor-setup');

  await section.getByLabel('Enter the 6-digit code the app shows').fill(totp(key));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const list = section.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const [first = '', second = '', ...rest] = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  const codes = [first, second, ...rest];
  expect(codes.every((c) => /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/.test(c))).toBe(true);
  await shot('two-factor-recovery-codes');
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  await expect(section.getByText('10 recovery codes left')).toBeVisible();

  // Signing in now asks for the code after the password.
  await logOut(page, server.appUrl);
  await signInWithForm(page, email);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expect(code).toBeFocused();
  await shot('two-factor-sign-in');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/^Incorrect two-factor code/)).toBeVisible();
  // The code that turned it on was used; the next step's is the app's next code.
  await code.fill(totp(key, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(SIGNED_IN);
  await expect(page.getByRole('link', { name: 'Profile' }).first()).toBeVisible();

  // A recovery code in place of the phone, once.
  await logOut(page, server.appUrl);
  await signInWithForm(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(first);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(SIGNED_IN);
  await expect(page.getByRole('link', { name: 'Profile' }).first()).toBeVisible();

  // Off only with a code: a recovery code does it.
  await page.goto(`${server.appUrl}/settings`);
  await expect(section.getByText('9 recovery codes left')).toBeVisible();
  await section.getByRole('button', { name: 'Turn off' }).click();
  await section.getByLabel('Code from your app, or a recovery code').fill(second);
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
  await logOut(page, server.appUrl);
  await signInWithForm(page, email);
  await expect(page).toHaveURL(SIGNED_IN);
  expect(csp).toEqual([]);
});
