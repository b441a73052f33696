/**
 * Search, profiles, listening, blocking, the blocked list, profile edit with an avatar, and
 * account deletion, with two real accounts against the real server.
 */
import { join } from 'node:path';
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, createVerifiedUser, signInThroughAddress } from './support/accounts';
import { writeAvatarPng } from './support/images';

const BLOCKED_LISTEN_ALERT =
  'Cannot listen to this user because either you have blocked them or they have blocked you.';

interface Account {
  id: string;
  name: string;
  login: string;
  email: string;
  token: string;
}

function suffix(): string {
  return Math.random().toString(36).slice(2, 7);
}

async function account(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  prefix: string,
  name: string,
  testInfo: TestInfo,
): Promise<Account> {
  const email = uniqueEmail(prefix, testInfo.project.name);
  const token = await createVerifiedUser(request, server, email, name);
  const me = await request.get(`${server.url}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.ok()).toBe(true);
  const body = (await me.json()) as { id: string; name: string; login: string };
  return { id: String(body.id), name: body.name, login: body.login, email, token };
}

/** A second browser with the same viewport as the project (the desktop or the phone). */
async function secondPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, deviceScaleFactor, isMobile, hasTouch, locale } = testInfo.project.use;
  const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch, locale });
  return context.newPage();
}

async function signInWithToken(page: Page, appUrl: string, token: string) {
  await signInThroughAddress(page, appUrl, token);
  await expect(page).toHaveURL(`${appUrl}/home`);
}

/** Brings a part of the page to the middle of the screen before a screenshot. */
async function centre(locator: ReturnType<Page['locator']>) {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
}

/**
 * Records every browser dialog (alert, confirm) the page opens, dismissing it: the app asks and
 * tells in the page, so the list must stay empty.
 */
function browserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return seen;
}

function stat(page: Page, key: 'posts' | 'listeners' | 'listenedTo') {
  return page.locator(`[data-stat="${key}"] dd`);
}

test('two people: search, listen, block, blocked list, 403, unblock, edit profile, avatar, delete', async ({
  browser,
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  const dialogsA = browserDialogs(page);
  const a = await account(request, server, 'ava', `Ava ${suffix()}`, testInfo);
  const b = await account(request, server, 'ben', `Ben ${suffix()}`, testInfo);
  const shotOf = (p: Page, name: string, fullPage = false) =>
    p.screenshot({ path: join(ARTIFACTS_DIR, `${project}-${name}.png`), fullPage, animations: 'disabled' });

  // A signs in and finds B.
  await signInWithToken(page, server.appUrl, a.token);
  await page.goto(`${server.appUrl}/search`);
  const box = page.getByPlaceholder('Search');
  await expect(box).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New on SelfSound' })).toBeVisible();
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await shot('search-newest');

  await box.fill(`  ${b.login}  `);
  const rowB = page.getByRole('listitem').filter({ hasText: `@${b.login}` });
  await expect(rowB).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveCount(1);
  await expect(page).toHaveURL(`${server.appUrl}/search?q=${b.login}`);
  await shot('search-results');

  await rowB.getByRole('button', { name: `Listen ${b.name}` }).click();
  await expect(rowB.getByRole('button', { name: `Unlisten ${b.name}` })).toBeVisible();
  await shot('search-listening');

  await box.fill(`nobody-${suffix()}-${suffix()}`);
  await expect(page.getByText('No results found.')).toBeVisible();
  await shot('search-no-results');

  // B's profile as A sees it: Listeners 1, Unlisten.
  await box.fill(b.login);
  await rowB.getByRole('link').click();
  await expect(page).toHaveURL(`${server.appUrl}/user/${b.id}`);
  await expect(page.getByRole('heading', { level: 1, name: b.name })).toBeVisible();
  await expect(page.getByText(`@${b.login}`)).toBeVisible();
  await expect(page.getByText('No biography available')).toBeVisible();
  // No tag: nothing is shown ('Add tag' is only the owner's invitation).
  await expect(page.getByText('Add tag')).toHaveCount(0);
  await expect(stat(page, 'listeners')).toHaveText('1');
  await expect(stat(page, 'listenedTo')).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Unlisten' })).toBeVisible();
  await expect(page.getByText('No posts yet')).toBeVisible();
  await expect(page.getByText('Posts will appear below')).toBeVisible();
  await shot('other-profile-listening', { fullPage: true });

  // Unlisten and listen again from the profile: the counts follow.
  await page.getByRole('button', { name: 'Unlisten' }).click();
  await expect(page.getByRole('button', { name: 'Listen', exact: true })).toBeVisible();
  await expect(stat(page, 'listeners')).toHaveText('0');
  await shot('other-profile');
  await page.getByRole('button', { name: 'Listen', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unlisten' })).toBeVisible();
  await expect(stat(page, 'listeners')).toHaveText('1');

  // A blocks B from the menu: asked first, then / (→ /home) says who was blocked.
  await page.getByRole('button', { name: 'More options' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Block user' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Cancel' })).toBeVisible();
  await shot('other-profile-menu');
  await menu.getByRole('menuitem', { name: 'Cancel' }).click();
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: 'Block user' }).click();
  const confirmBlock = page.getByRole('dialog', { name: `Block ${b.name} (@${b.login})?` });
  await expect(confirmBlock).toBeVisible();
  await shot('block-confirm');
  await confirmBlock.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(page.getByTestId('toast')).toContainText(`You blocked ${b.name} (@${b.login}).`);
  await expect(page.getByTestId('toast').getByRole('button', { name: 'Undo' })).toBeVisible();
  await shot('blocked-toast');

  // The profile now says Blocked instead of Listen and offers Unblock user (and blocking ended
  // the listening).
  await page.goto(`${server.appUrl}/user/${b.id}`);
  await expect(stat(page, 'listeners')).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Blocked' })).toBeDisabled();
  await shot('other-profile-blocked-by-me');
  await page.getByRole('button', { name: 'More options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Unblock user' })).toBeVisible();
  await shot('other-profile-menu-blocked');
  await page.keyboard.press('Escape');

  // A's settings list B as blocked.
  await page.goto(`${server.appUrl}/settings`);
  const blockedToggle = page.getByRole('button', { name: /Blocked users/ });
  await expect(blockedToggle).toHaveAttribute('aria-expanded', 'false');
  await blockedToggle.click();
  await expect(blockedToggle).toHaveAttribute('aria-expanded', 'true');
  const blockedRow = page.getByRole('listitem').filter({ hasText: `@${b.login}` });
  await expect(blockedRow).toBeVisible();
  await expect(blockedRow.getByRole('link')).toHaveAttribute('href', `/app/user/${b.id}`);
  await centre(blockedRow);
  await shot('settings-blocked-list');

  // B signs in through the form, opens A's profile and tries to listen: the page says why.
  const pageB = await secondPage(browser, testInfo);
  const dialogsB = browserDialogs(pageB);
  await pageB.goto(`${server.appUrl}/sign-in`);
  await pageB.getByLabel('Email').fill(b.email);
  await pageB.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await pageB.getByRole('button', { name: 'Sign In', exact: true }).click();
  await pageB.waitForURL(`${server.appUrl}/home`);
  await pageB.goto(`${server.appUrl}/user/${a.id}`);
  await expect(pageB.getByRole('heading', { level: 1, name: a.name })).toBeVisible();
  const listenA = pageB.getByRole('button', { name: 'Listen', exact: true });
  await expect(listenA).toBeVisible();
  await listenA.click();
  await expect(pageB.getByRole('alert')).toHaveText(BLOCKED_LISTEN_ALERT);
  await expect(pageB.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
  await shotOf(pageB, 'other-profile-blocked-by-them');

  // In search too: the row says Unavailable and why, instead of nothing.
  await pageB.goto(`${server.appUrl}/search?q=${a.login}`);
  const rowA = pageB.getByRole('listitem').filter({ hasText: `@${a.login}` });
  await rowA.getByRole('button', { name: `Listen ${a.name}` }).click();
  await expect(rowA.getByRole('button', { name: `Unavailable: ${a.name}` })).toBeDisabled();
  await expect(rowA.getByRole('status')).toHaveText(BLOCKED_LISTEN_ALERT);
  await shotOf(pageB, 'search-blocked-by-them');
  await pageB.goto(`${server.appUrl}/user/${a.id}`);

  // A unblocks B from settings: the row goes, the list is empty.
  await blockedRow.getByRole('button', { name: `Unblock ${b.name}` }).click();
  await expect(blockedRow).toBeHidden();
  await expect(page.getByText('No blocked users')).toBeVisible();
  await centre(page.getByText('No blocked users'));
  await shot('settings-blocked-empty');

  // Now B can listen to A.
  await pageB.reload();
  await pageB.getByRole('button', { name: 'Listen', exact: true }).click();
  await expect(pageB.getByRole('button', { name: 'Unlisten' })).toBeVisible();
  await expect(stat(pageB, 'listeners')).toHaveText('1');

  // A's own profile, then the Edit profile modal.
  await page.goto(`${server.appUrl}/profile`);
  await expect(page.getByRole('heading', { level: 1, name: a.name })).toBeVisible();
  await expect(page.getByRole('main').getByText(`@${a.login}`)).toBeVisible();
  await expect(stat(page, 'listeners')).toHaveText('1');
  await expect(page.getByText('No posts yet')).toBeVisible();
  await expect(page.getByText('Be the first to share something!')).toBeVisible();
  await shot('own-profile', { fullPage: true });

  await page.getByRole('button', { name: 'Edit profile' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit profile' });
  await expect(modal).toBeVisible();
  await shot('edit-profile');

  const newName = `Ava Renamed ${suffix()}`.slice(0, 15);
  const newLogin = `ava_${suffix()}${suffix()}`;
  const biography = 'Cellist and producer. I write film scores and teach.';
  await modal.getByLabel('Name').fill('An extremely long name indeed');
  await expect(modal.getByLabel('Name')).toHaveValue('An extremely lo');
  await modal.getByLabel('Name').fill(newName);
  await modal.getByLabel('Login').fill(`@${newLogin.slice(0, 4)}.${newLogin.slice(4)} `);
  await expect(modal.getByLabel('Login')).toHaveValue(newLogin);
  await modal.getByLabel('Biography').fill(biography);

  const preview = modal.getByTestId('tag-preview');
  await expect(preview).toHaveText('Add tag');
  await modal.getByRole('button', { name: 'Learner' }).click();
  await expect(preview).toHaveText('Learner');
  await modal.getByRole('button', { name: 'Learner' }).click();
  await expect(preview).toHaveText('Add tag');
  await modal.getByRole('button', { name: 'Musician' }).click();
  await expect(modal.getByRole('button', { name: 'Musician' })).toHaveAttribute('aria-pressed', 'true');

  // The avatar uploads as soon as it is chosen.
  const png = testInfo.outputPath('avatar.png');
  writeAvatarPng(png);
  const uploaded = page.waitForResponse(
    (r) => r.url().endsWith('/profile/me/avatar') && r.request().method() === 'PATCH',
  );
  await modal.locator('input[type="file"]').setInputFiles(png);
  expect((await uploaded).status()).toBe(200);
  await expect(modal.getByText('Change avatar')).toBeVisible();
  await shot('edit-profile-filled');

  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  await expect(page.getByRole('main').getByText(`@${newLogin}`)).toBeVisible();
  await expect(page.getByText(biography)).toBeVisible();
  await expect(page.getByText('Musician', { exact: true })).toBeVisible();

  // After a reload everything is still there, the avatar served from /media/avatars/.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  await expect(page.getByRole('main').getByText(`@${newLogin}`)).toBeVisible();
  await expect(page.getByText(biography)).toBeVisible();
  await expect(page.getByText('Musician', { exact: true })).toBeVisible();
  const avatar = page.getByRole('img', { name: newName });
  await expect(avatar).toHaveAttribute('src', /\/media\/avatars\//);
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  await shot('own-profile-edited', { fullPage: true });

  // B sees the new name, login and avatar.
  await pageB.reload();
  await expect(pageB.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  await expect(pageB.getByRole('img', { name: newName })).toHaveAttribute('src', /\/media\/avatars\//);
  await shotOf(pageB, 'other-profile-edited');

  // A deletes the account (asked in the page); the sign-in page says so; B no longer finds A.
  await page.goto(`${server.appUrl}/settings`);
  await page.getByRole('button', { name: 'Delete account' }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Delete account' });
  await expect(confirmDelete).toContainText(
    'Are you sure you want to delete your account? This action cannot be undone.',
  );
  await shot('delete-account-confirm');
  await confirmDelete.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.waitForURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('status')).toHaveText('Your account has been deleted.');
  await shot('sign-in-account-deleted');

  await pageB.goto(`${server.appUrl}/search`);
  await pageB.getByPlaceholder('Search').fill(newLogin);
  await expect(pageB.getByText('No results found.')).toBeVisible();
  await shotOf(pageB, 'search-deleted-user');
  await pageB.goto(`${server.appUrl}/user/${a.id}`);
  // The app's not-found page, not developer text with a Try Again that cannot succeed (issue 34).
  await expect(pageB.getByRole('heading', { level: 1, name: 'Profile not found' })).toBeVisible();
  await expect(pageB.getByText(`You looked for /user/${a.id}`)).toBeVisible();
  await expect(pageB.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await shotOf(pageB, 'other-profile-not-found');
  await pageB.getByRole('searchbox', { name: 'Search for people' }).fill(newLogin);
  await pageB.getByRole('searchbox', { name: 'Search for people' }).press('Enter');
  await expect(pageB).toHaveURL(new RegExp(`/search\\?tab=people&q=${newLogin}$`));
  await expect(pageB.getByText('No results found.')).toBeVisible();
  await pageB.context().close();
  expect(dialogsA).toEqual([]);
  expect(dialogsB).toEqual([]);
});

test('a guest sees profiles and is sent to sign in to listen or block', async ({ page, request, server, shot }, testInfo) => {
  const c = await account(request, server, 'cleo', `Cleo ${suffix()}`, testInfo);

  await page.goto(`${server.appUrl}/search`);
  await page.getByPlaceholder('Search').fill(c.login);
  const row = page.getByRole('listitem').filter({ hasText: `@${c.login}` });
  await expect(row.getByRole('button', { name: `Listen ${c.name}` })).toBeVisible();
  await shot('search-guest');
  await row.getByRole('button', { name: `Listen ${c.name}` }).click();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);

  for (const path of [`/user/${c.id}`, `/profile/${c.id}`, `/another-user-rofile?userId=${c.id}`]) {
    await page.goto(`${server.appUrl}${path}`);
    await expect(page.getByRole('heading', { level: 1, name: c.name })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Listen', exact: true })).toBeVisible();
  await shot('other-profile-guest');
  await page.getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: 'Block user' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);

  await page.goto(`${server.appUrl}/user/${c.id}`);
  await page.getByRole('button', { name: 'Listen', exact: true }).click();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);

  await page.goto(`${server.appUrl}/another-user-rofile`);
  await expect(page.getByText('No user ID provided')).toBeVisible();
  await shot('other-profile-no-id');

  await page.goto(`${server.appUrl}/profile`);
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
});

test('visiting your own id opens your own profile', async ({ page, request, server }, testInfo) => {
  const d = await account(request, server, 'dora', `Dora ${suffix()}`, testInfo);
  await signInWithToken(page, server.appUrl, d.token);
  await page.goto(`${server.appUrl}/user/${d.id}`);
  await expect(page).toHaveURL(`${server.appUrl}/profile`);
  await expect(page.getByRole('button', { name: 'Edit profile' })).toBeVisible();
});

/** Holds matching requests until `release()`, so an in-between state can be looked at. */
async function hold(page: Page, url: string, method: string) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    await gate;
    await route.fallback();
  });
  return { release: () => release(), done: () => page.unroute(url) };
}

test('in-between and failure states of profiles, the edit form and the blocked list', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const dialogs = browserDialogs(page);
  const e = await account(request, server, 'eve', `Eve ${suffix()}`, testInfo);
  const f = await account(request, server, 'finn', `Finn ${suffix()}`, testInfo);
  await signInWithToken(page, server.appUrl, e.token);

  // Another profile while the listening list and the block status are still on their way.
  const listened = await hold(page, '**/profiles/listened', 'GET');
  const status = await hold(page, '**/profiles/blocks/check/*', 'GET');
  await page.goto(`${server.appUrl}/user/${f.id}`);
  await expect(page.getByRole('button', { name: 'Loading...' })).toBeVisible();
  await page.getByRole('button', { name: 'More options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Loading...' })).toBeVisible();
  await shot('other-profile-loading');
  listened.release();
  status.release();
  await expect(page.getByRole('button', { name: 'Listen', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Block user' })).toBeVisible();
  await page.keyboard.press('Escape');
  await listened.done();
  await status.done();

  // A listening failure other than 401/403 says so on the page.
  await page.route('**/profiles/listening/*', (route) =>
    route.fulfill({ status: 500, json: { detail: 'Boom' } }),
  );
  await page.getByRole('button', { name: 'Listen', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to update listening status. Please try again.');
  await expect(page.getByRole('button', { name: 'Listen', exact: true })).toBeVisible();
  await shot('other-profile-listen-failed');
  await page.unroute('**/profiles/listening/*');

  // Blocking (once confirmed): 'Processing...' while the call runs, then /.
  const blocking = await hold(page, '**/profiles/blocks/*', 'POST');
  await page.getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: 'Block user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Processing...' })).toBeVisible();
  await shot('other-profile-processing');
  blocking.release();
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await blocking.done();

  // Settings: collapsed, then loading, then the list; unblocking shows 'Unblocking...'.
  await page.goto(`${server.appUrl}/settings`);
  const toggle = page.getByRole('button', { name: /Blocked users/ });
  await centre(toggle);
  await shot('settings-blocked-collapsed');
  const blocks = await hold(page, '**/profiles/blocks', 'GET');
  await toggle.click();
  await expect(page.getByText('Loading blocked users...')).toBeVisible();
  await centre(page.getByText('Loading blocked users...'));
  await shot('settings-blocked-loading');
  blocks.release();
  const row = page.getByRole('listitem').filter({ hasText: `@${f.login}` });
  await expect(row).toBeVisible();
  await blocks.done();

  await page.route('**/profiles/blocks/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, json: { detail: 'Storage is down' } })
      : route.fallback(),
  );
  await row.getByRole('button', { name: `Unblock ${f.name}` }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to unblock user: Storage is down');
  await expect(row).toBeVisible();
  await centre(row);
  await shot('settings-unblock-failed');
  await page.unroute('**/profiles/blocks/*');

  const unblocking = await hold(page, '**/profiles/blocks/*', 'DELETE');
  await row.getByRole('button', { name: `Unblock ${f.name}` }).click();
  await expect(row.getByRole('button', { name: 'Unblocking...' })).toBeDisabled();
  await centre(row);
  await shot('settings-unblocking');
  unblocking.release();
  await expect(row).toBeHidden();
  await unblocking.done();

  await page.route('**/profiles/blocks', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"x"}' }),
  );
  await page.reload();
  await page.getByRole('button', { name: /Blocked users/ }).click();
  await expect(page.getByText('Failed to fetch blocked users: Internal Server Error')).toBeVisible();
  await centre(page.getByText('Failed to fetch blocked users: Internal Server Error'));
  await shot('settings-blocked-error');
  await page.unroute('**/profiles/blocks');

  // The edit form: client checks, a refused avatar (the old picture comes back), Saving...,
  // and a login someone else has.
  await page.goto(`${server.appUrl}/profile`);
  await page.getByRole('button', { name: 'Edit profile', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Edit profile' });
  const fileInput = modal.locator('input[type="file"]');

  await fileInput.setInputFiles({ name: 'song.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(modal.getByRole('alert')).toHaveText('Please select a PNG or JPEG image');
  await fileInput.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024),
  });
  await expect(modal.getByRole('alert')).toHaveText('Image must be smaller than 5MB');

  const png = testInfo.outputPath('avatar.png');
  writeAvatarPng(png);
  // The refusal is registered first: the hold (registered last, so asked first) falls back to it.
  await page.route('**/profile/me/avatar', (route) =>
    route.fulfill({ status: 415, json: { detail: 'Please select a PNG or JPEG image' } }),
  );
  const upload = await hold(page, '**/profile/me/avatar', 'PATCH');
  const modalAvatar = modal.getByRole('img', { name: `${e.name}'s avatar` });
  // The server names a default picture for people without one (avatar_url is never null).
  const before = await modalAvatar.getAttribute('src');
  expect(before).toMatch(/\/static\/default-avatar-v1\.svg$/);
  await fileInput.setInputFiles(png);
  await expect(modal.getByText('Uploading...')).toBeVisible();
  await expect(modalAvatar).toHaveAttribute('src', /^blob:/);
  await shot('edit-profile-uploading');
  upload.release();
  await expect(modal.getByRole('alert')).toContainText('Avatar upload failed');
  await expect(modalAvatar).toHaveAttribute('src', before ?? '');
  await shot('edit-profile-avatar-failed');
  await page.unroute('**/profile/me/avatar');

  await modal.getByLabel('Name').fill('   ');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('Name cannot be empty')).toBeVisible();
  await shot('edit-profile-invalid');

  await modal.getByLabel('Name').fill(e.name);
  await modal.getByLabel('Login').fill(f.login);
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('This login is already taken')).toBeVisible();
  await shot('edit-profile-login-taken');

  const freshLogin = `eve_${suffix()}${suffix()}`;
  await modal.getByLabel('Login').fill(freshLogin);
  const saving = await hold(page, '**/profile/me', 'PATCH');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await shot('edit-profile-saving');
  saving.release();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('main').getByText(`@${freshLogin}`)).toBeVisible();
  await saving.done();
  expect(dialogs).toEqual([]);
});
