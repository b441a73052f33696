/**
 * What a new user tripped over (issue 6 §8), tried again against the real server: a session
 * that ends under a page, signing in to come back, a dead token, the sign-in page for someone
 * already signed in, another person's /profile/{id}, Undo after blocking, and what the first
 * visit downloads.
 */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, settled, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, createVerifiedUser, ownClientAddress, signInThroughAddress } from './support/accounts';

interface Person {
  id: string;
  name: string;
  login: string;
  email: string;
  token: string;
}

async function person(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  prefix: string,
  testInfo: TestInfo,
): Promise<Person> {
  const email = uniqueEmail(prefix, testInfo.project.name);
  const name = `${prefix[0]!.toUpperCase()}${prefix.slice(1)} ${Math.random().toString(36).slice(2, 6)}`;
  const token = await createVerifiedUser(request, server, email, name);
  const me = await request.get(`${server.url}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await me.json()) as { id: string; login: string };
  return { id: String(body.id), name, login: body.login, email, token };
}

async function signInWithToken(page: Page, appUrl: string, token: string) {
  await signInThroughAddress(page, appUrl, token);
  await expect(page).toHaveURL(`${appUrl}/home`);
}

/** Ends the session a token names on the server, as an expiry or a logout elsewhere would. */
async function endSession(request: APIRequestContext, url: string, token: string) {
  const answer = await request.post(`${url}/auth/logout`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
}

async function signInWithForm(page: Page, who: Person) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('a session that ends while editing the profile: told why, and back with the edit after signing in', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const ada = await person(request, server, 'ada', testInfo);
  await ownClientAddress(page.context());
  await signInWithToken(page, server.appUrl, ada.token);
  await page.goto(`${server.appUrl}/profile`);
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit profile' });
  await modal.getByLabel('Name').fill('Ada Draft');
  await modal.getByLabel('Biography').fill('Typed before the session ended.');
  await modal.getByRole('button', { name: 'Learner' }).click();

  // The tab hears of it at once (its live notification stream ends with the session) and goes
  // to sign in by itself; what was typed is kept as a draft.
  await endSession(request, server.url, ada.token);

  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('alert')).toHaveText('Session expired. Please sign in again.');
  await shot('sign-in-session-expired');

  await signInWithForm(page, ada);
  await expect(page).toHaveURL(`${server.appUrl}/profile`);
  const again = page.getByRole('dialog', { name: 'Edit profile' });
  await expect(again).toBeVisible();
  await expect(again.getByLabel('Name')).toHaveValue('Ada Draft');
  await expect(again.getByLabel('Biography')).toHaveValue('Typed before the session ended.');
  await expect(again.getByRole('button', { name: 'Learner' })).toHaveAttribute('aria-pressed', 'true');
  await expect(again.getByRole('status')).toContainText('Your unsaved changes are back.');
  await shot('edit-profile-restored');

  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Ada Draft' })).toBeVisible();
  await expect(page.getByText('Typed before the session ended.')).toBeVisible();

  // Saved: a reload does not bring the dialog back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Ada Draft' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a session that ends under the blocked list: told to sign in to view it, then back in Settings', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const bea = await person(request, server, 'bea', testInfo);
  await ownClientAddress(page.context());
  // Without its live stream (a proxy that drops it), the tab learns of the ended session from
  // its next call: the blocked list's own words then say why.
  await page.route('**/notifications/stream', (route) => route.abort());
  await signInWithToken(page, server.appUrl, bea.token);
  await page.goto(`${server.appUrl}/settings`);
  const toggle = page.getByRole('button', { name: /Blocked users/ });
  await expect(toggle).toBeVisible();
  // Every section has read its part first: one still loading when the session ends would be
  // told first, and sign-in would then say its words, not the blocked list's.
  await settled(page);

  await endSession(request, server.url, bea.token);
  await toggle.click();

  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('alert')).toHaveText('Please sign in to view blocked users');
  await shot('sign-in-blocked-list-expired');

  await signInWithForm(page, bea);
  await expect(page).toHaveURL(`${server.appUrl}/settings`);
  await page.getByRole('button', { name: /Blocked users/ }).click();
  await expect(page.getByText('No blocked users')).toBeVisible();
});

test('the sign-in page sends someone already signed in home', async ({ page, request, server }, testInfo) => {
  const cal = await person(request, server, 'cal', testInfo);
  await signInWithToken(page, server.appUrl, cal.token);
  await page.goto(`${server.appUrl}/sign-in`);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(page.getByRole('tab', { name: 'For you' })).toBeVisible();
});

test('a dead token on a public page is forgotten: the nav bar is plainly signed out', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const dot = await person(request, server, 'dot', testInfo);
  await signInWithToken(page, server.appUrl, dot.token);
  await endSession(request, server.url, dot.token);

  await page.goto(`${server.appUrl}/search`);
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  expect(await page.evaluate(() => document.cookie)).not.toContain('access_token=');
  await shot('search-dead-token-forgotten');

  // Nothing half-signed-in is left: a page that needs a session just asks to sign in.
  await page.goto(`${server.appUrl}/settings`);
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test("someone else's /profile/{id} does not light up Profile", async ({ page, request, server, shot }, testInfo) => {
  const eli = await person(request, server, 'eli', testInfo);
  const fay = await person(request, server, 'fay', testInfo);
  await signInWithToken(page, server.appUrl, eli.token);
  await page.goto(`${server.appUrl}/search`);
  await expect(page.getByPlaceholder('Search')).toBeVisible();
  await page.goto(`${server.appUrl}/profile/${fay.id}`);
  await expect(page.getByRole('heading', { level: 1, name: fay.name })).toBeVisible();

  const nav = page.locator('[data-nav="profile"]');
  for (const link of await nav.all()) await expect(link).not.toHaveAttribute('aria-current', 'page');
  // The highlight follows the address: someone else's profile is no nav item's page (issue 34).
  await expect(page.locator('nav [aria-current="page"]')).toHaveCount(0);
  await shot('other-profile-by-profile-id');

  await page.goto(`${server.appUrl}/profile`);
  await expect(page.locator('[data-nav="profile"]').filter({ visible: true })).toHaveAttribute('aria-current', 'page');
});

test('after blocking, Undo unblocks from the page the block led to', async ({ page, request, server, shot }, testInfo) => {
  const gus = await person(request, server, 'gus', testInfo);
  const hal = await person(request, server, 'hal', testInfo);
  await signInWithToken(page, server.appUrl, gus.token);
  await page.goto(`${server.appUrl}/user/${hal.id}`);
  await page.getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: 'Block user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  const toast = page.getByTestId('toast');
  await expect(toast).toContainText(`You blocked ${hal.name} (@${hal.login}).`);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toContainText(`You unblocked ${hal.name} (@${hal.login}).`);
  await shot('blocked-toast-undone');

  const check = await request.get(`${server.url}/profiles/blocks/check/${hal.id}`, {
    headers: { Authorization: `Bearer ${gus.token}` },
  });
  expect(((await check.json()) as { is_blocked: boolean }).is_blocked).toBe(false);
  await page.goto(`${server.appUrl}/user/${hal.id}`);
  await expect(page.getByRole('button', { name: 'Listen', exact: true })).toBeEnabled();
});

test('the first visit to /home downloads the first-load scripts only; other pages come when needed', async ({
  page,
  server,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('.js')) scripts.push(path);
  });
  await page.goto(`${server.appUrl}/home`);
  await page.waitForLoadState('networkidle');
  // The app's one entry chunk and the bundler's tiny runtime it shares with the lazy chunks;
  // and once the page is idle, the player's <audio> engine (no page needs it to show).
  const first = scripts.filter((path) => !/^\/app\/assets\/audio-engine-[\w-]+\.js$/.test(path));
  expect(first.length).toBeLessThanOrEqual(2);
  expect(first.some((path) => /^\/app\/assets\/index-[\w-]+\.js$/.test(path))).toBe(true);
  for (const path of first) expect(path).toMatch(/^\/app\/assets\/(index|rolldown-runtime)-[\w-]+\.js$/);

  // Each page arrives on demand.
  await page.locator('[data-nav="search"]').filter({ visible: true }).click();
  await expect(page.getByPlaceholder('Search')).toBeVisible();
  expect(scripts.some((path) => /search-page-/.test(path))).toBe(true);
});
