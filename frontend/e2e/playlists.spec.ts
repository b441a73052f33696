/**
 * Playlists (issue 31): Ana adds Bob's track to a new playlist from its post page, then one of
 * her own; reorders them with the keyboard; Play all plays them in order; the playlist shows on
 * her profile's Playlists tab; made private, a guest no longer finds it. axe finds nothing on the
 * playlist page and the add dialog, light and dark.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

async function track(request: APIRequestContext, url: string, token: string, title: string): Promise<string> {
  const made = await request.post(`${url}/posts/audio`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { audio_files: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: toneWav(3, 330) } },
  });
  expect(made.status(), await made.text()).toBe(201);
  return String(((await made.json()) as { id: string }).id);
}

test('a playlist is made from post pages, put in order, played and shared', async ({ page, browser, request, server, shot }, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('playlist-ana', project), 'Ana Lists');
  const bob = await signedUpAccount(request, server, uniqueEmail('playlist-bob', project), 'Bob Lists');
  const suffix = Math.random().toString(36).slice(2, 6);
  const groove = await track(request, server.url, bob.token, `Groove ${suffix}`);
  const sunset = await track(request, server.url, ana.token, `Sunset ${suffix}`);
  const name = `Road trip ${suffix}`;

  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${groove}`);
  await page.getByRole('button', { name: 'Add to playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to playlist' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('New playlist title').fill(name);
  await shot('add-to-a-new-playlist');
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Create and add' }).click();
  await expect(page.getByTestId('toast')).toContainText(`Added to ${name}`);

  await page.goto(`${server.appUrl}/post/${sunset}`);
  await page.getByRole('button', { name: 'Add to playlist' }).click();
  await page.getByRole('dialog', { name: 'Add to playlist' }).getByRole('button', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('toast')).toContainText(`Added to ${name}`);

  // On her profile's Playlists tab, then its page.
  await page.goto(`${server.appUrl}/profile`);
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await expect(page).toHaveURL(/tab=playlists/);
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const items = page.getByRole('list', { name: `Tracks of ${name}` }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(`Groove ${suffix}`);
  await expect(items.nth(1)).toContainText(`Sunset ${suffix}`);

  // The keyboard moves Sunset up; the order holds after a reload.
  await page.getByRole('button', { name: `Move Sunset ${suffix} up` }).focus();
  await page.keyboard.press('Enter');
  await expect(items.nth(0)).toContainText(`Sunset ${suffix}`);
  await page.reload();
  await expect(items.nth(0)).toContainText(`Sunset ${suffix}`);
  await expect(items.nth(1)).toContainText(`Groove ${suffix}`);
  await shot('a-playlist');
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });

  // Play all: the first of the playlist plays, the next is queued.
  await page.getByRole('button', { name: 'Play all' }).click();
  const bar = page.getByRole('region', { name: 'Now playing' });
  await expect(bar).toContainText(`Sunset ${suffix}`);
  await shot('a-playlist-playing');
  const playlistUrl = page.url();

  // A guest sees it while it is public; made private, it is not found.
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(playlistUrl);
  await expect(guestPage.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit playlist' });
  await edit.getByLabel(/^Public/).uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Playlist · Private')).toBeVisible();
  await guestPage.reload();
  await expect(guestPage.getByText('Playlist not found')).toBeVisible();
  await guest.close();
  expect(csp).toEqual([]);
});
