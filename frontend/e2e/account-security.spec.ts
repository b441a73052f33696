/**
 * Account security (issue 7) against the real server: a forgotten password reset through the
 * e-mailed link, a password changed in Settings, the list of signed-in devices, signing one out,
 * and "Sign out everywhere". Each ends sessions; a second browser context stands for another
 * device that was signed in before.
 */
import type { APIRequestContext, Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, createVerifiedUser, ownClientAddress, signInThroughAddress } from './support/accounts';
import { watchCsp } from './support/csp';
import { passwordResetLink } from './support/mail';

const NEW_PASSWORD = 'Fresh!Tune42x';

interface Person {
  email: string;
  /** A session made through the API at set-up (the other device signs in with it). */
  token: string;
}

async function person(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  prefix: string,
  testInfo: TestInfo,
): Promise<Person> {
  const email = uniqueEmail(prefix, testInfo.project.name);
  const token = await createVerifiedUser(request, server, email, `${prefix} tester`);
  return { email, token };
}

/** Another device, signed in before the test acts: its own context, with the set-up token. */
async function otherDevice(browser: Browser, appUrl: string, token: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughAddress(page, appUrl, token);
  await expect(page).toHaveURL(`${appUrl}/home`);
  await page.goto(`${appUrl}/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  return { context, page };
}

/** A device whose session ended: its next visit to a protected page lands on /sign-in. */
async function expectSignedOut(page: Page, appUrl: string) {
  await page.goto(`${appUrl}/settings`);
  await expect(page).toHaveURL(`${appUrl}/sign-in`);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
}

async function signInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('a forgotten password: the e-mailed link sets a new one and signs every device out', async ({
  page,
  browser,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const pat = await person(request, server, 'pat', testInfo);
  const other = await otherDevice(browser, server.appUrl, pat.token);
  await ownClientAddress(page.context());

  await page.goto(`${server.appUrl}/sign-in`);
  await page.getByLabel('Email').fill(pat.email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/forgot-password`);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  // The address typed on the sign-in page came along.
  await expect(page.getByLabel('Email')).toHaveValue(pat.email);
  await shot('forgot-password');

  const asked = Date.now() - 1000;
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: /link/i })).toBeVisible();
  await shot('forgot-password-sent');

  const link = await passwordResetLink(server.dataDir, pat.email, asked);
  expect(link).toContain(`${server.appUrl}/reset-password#token=`);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  // The token left the address at once (and was never a session token).
  await expect(page).toHaveURL(`${server.appUrl}/reset-password`);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Confirm password').fill('shorter');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await expect(page.getByText('Strong password')).toBeVisible();
  await shot('reset-password', { fullPage: true });
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('status')).toHaveText('Your password was changed. Sign in with your new password.');
  await shot('sign-in-after-password-reset');

  // The device that was signed in before is signed out.
  await expectSignedOut(other.page, server.appUrl);
  await other.context.close();

  // The link worked once.
  await page.goto(link);
  await expect(page).toHaveURL(`${server.appUrl}/reset-password`);
  await page.getByLabel('New password').fill('Another!Tune42x');
  await page.getByLabel('Confirm password').fill('Another!Tune42x');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired.');
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  await shot('reset-password-link-used');

  // The old password fails, the new one works.
  await page.goto(`${server.appUrl}/sign-in`);
  await signInWithForm(page, pat.email, PASSWORD);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  expect(csp).toEqual([]);
});

test('changing the password in Settings signs the other devices out, and this one stays', async ({
  page,
  browser,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const quinn = await person(request, server, 'quinn', testInfo);
  const other = await otherDevice(browser, server.appUrl, quinn.token);
  await ownClientAddress(page.context());
  await page.goto(`${server.appUrl}/sign-in`);
  await signInWithForm(page, quinn.email, PASSWORD);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  await page.goto(`${server.appUrl}/settings`);
  const section = page.getByRole('region', { name: 'Password' });
  await section.getByLabel('Current password').fill('Not!MyPassw0rd');
  await section.getByLabel('New password').fill(NEW_PASSWORD);
  await section.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByText('Current password is incorrect')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await shot('settings-password-wrong-current');

  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('toast')).toContainText('Password changed. Your other devices were signed out.');
  await expect(section.getByLabel('Current password')).toHaveValue('');
  await shot('settings-password-changed');

  // The other device is signed out; this one is not, even after a reload.
  await expectSignedOut(other.page, server.appUrl);
  await other.context.close();
  await page.reload();
  await expect(page).toHaveURL(`${server.appUrl}/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);

  const signIn = (password: string) =>
    request.post(`${server.url}/authorization/logindefault`, {
      data: { email: quinn.email, password },
      headers: { 'X-Forwarded-For': '10.250.0.1' },
    });
  expect((await signIn(PASSWORD)).status()).toBe(401);
  expect((await signIn(NEW_PASSWORD)).ok()).toBe(true);
  expect(csp).toEqual([]);
});

test('the sessions list shows both devices, signs one out, and "Sign out everywhere" ends them all', async ({
  page,
  browser,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const rae = await person(request, server, 'rae', testInfo);
  const other = await otherDevice(browser, server.appUrl, rae.token);
  await ownClientAddress(page.context());
  await page.goto(`${server.appUrl}/sign-in`);
  await signInWithForm(page, rae.email, PASSWORD);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  await page.goto(`${server.appUrl}/settings`);
  const sessions = page.getByRole('region', { name: 'Sessions' });
  const rows = sessions.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(sessions.getByText('This device', { exact: true })).toHaveCount(1);
  await expect(rows.first()).toContainText('This device');
  await expect(rows.first()).toContainText('Last active just now');
  await expect(rows.nth(1).getByRole('button', { name: /^Sign out / })).toBeVisible();
  await sessions.scrollIntoViewIfNeeded();
  await shot('settings-sessions');

  // A third device (named by its user agent), signed out from here: its token stops working,
  // the other device's does not.
  const third = await request.post(`${server.url}/authorization/logindefault`, {
    data: { email: rae.email, password: PASSWORD },
    headers: {
      'X-Forwarded-For': '10.250.0.2',
      'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
    },
  });
  const thirdToken = ((await third.json()) as { access_token: string }).access_token;
  await page.reload();
  await expect(rows).toHaveCount(3);
  const thirdRow = rows.filter({ hasText: 'Firefox on Windows' });
  await expect(thirdRow).toContainText('Last active just now');
  await thirdRow.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
  await expect(rows).toHaveCount(2);
  await expect(sessions.getByText('Firefox on Windows')).toHaveCount(0);
  const me = (token: string) =>
    request.get(`${server.url}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect((await me(thirdToken)).status()).toBe(401);
  expect((await me(rae.token)).ok()).toBe(true);

  await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere' });
  await expect(dialog).toContainText('Sign out on every device, this one included?');
  await shot('sign-out-everywhere-dialog');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();

  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('status')).toHaveText('You were signed out on every device.');
  await shot('sign-in-signed-out-everywhere');
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

  // Both devices are signed out, this one included (its cookie is gone too).
  await expectSignedOut(page, server.appUrl);
  await expectSignedOut(other.page, server.appUrl);
  await other.context.close();
  expect((await me(rae.token)).status()).toBe(401);
  expect(csp).toEqual([]);
});

test('a token in any address but the sign-in page does not sign in', async ({ page, request, server }, testInfo) => {
  const sam = await person(request, server, 'sam', testInfo);
  await page.goto(`${server.appUrl}/home?token=${encodeURIComponent(sam.token)}`);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await page.goto(`${server.appUrl}/settings#token=${encodeURIComponent(sam.token)}`);
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
});

test('a reset link without its token says so and offers a new one', async ({ page, server, shot }) => {
  await page.goto(`${server.appUrl}/reset-password`);
  await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired.');
  await page.getByRole('link', { name: 'Request a new link' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/forgot-password`);
  await shot('reset-password-no-token');
});
