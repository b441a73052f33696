/**
 * Play counts (issue 31): a track heard to its end (or for 30 s) counts once for its listener,
 * the card shows it at once, playing it again within the hour adds nothing, and a listener
 * signed out counts too; the author sees each track's plays on their own profile. axe finds
 * nothing on the profile, light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { ownClientAddress, signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

/** Plays the post's track on its page to the end, and waits for the count to show `count`. */
async function playToTheEnd(page: Page, appUrl: string, post: string, title: string, count: string) {
  await page.goto(`${appUrl}/post/${post}`);
  const card = page.getByRole('article').first();
  await card.getByRole('button', { name: `Play ${title}` }).click();
  await expect(card.getByRole('button', { name: `Pause ${title}` })).toBeVisible();
  // The button resets at the end (spec §4); the count follows the server's answer.
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText(count, { exact: true })).toBeVisible();
}

test('a track heard to its end counts once per listener, and its author sees the plays', async ({ page, browser, request, server, shot }, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('plays-ana', project), 'Ana Plays');
  const bob = await signedUpAccount(request, server, uniqueEmail('plays-bob', project), 'Bob Plays');
  const title = `Short Tone ${Math.random().toString(36).slice(2, 7)}`;
  const made = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: {
      audio_files: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: toneWav(4, 330) },
      caption: 'Four seconds of a tone',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = String(((await made.json()) as { id: string }).id);

  // Bob hears it to the end: one play, shown on the card at once.
  await signInThroughAddress(page, server.appUrl, bob.token);
  await page.goto(`${server.appUrl}/post/${post}`);
  const card = page.getByRole('article').first();
  await expect(card.getByText(/\bplays?\b/)).toHaveCount(0);
  await playToTheEnd(page, server.appUrl, post, title, '1 play');
  await shot('a-track-with-its-plays');
  // Again within the hour: still one.
  await card.getByRole('button', { name: `Play ${title}` }).click();
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByRole('article').first().getByText('1 play', { exact: true })).toBeVisible();

  // Someone signed out, in a browser of their own, counts too.
  const guest = await browser.newContext();
  await ownClientAddress(guest);
  const guestPage = await guest.newPage();
  await playToTheEnd(guestPage, server.appUrl, post, title, '2 plays');
  await guest.close();

  // Ana's own plays are not counted; her profile lists the track's.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInThroughAddress(page, server.appUrl, ana.token);
  await playToTheEnd(page, server.appUrl, post, title, '2 plays');
  await page.goto(`${server.appUrl}/profile`);
  const plays = page.getByRole('region', { name: 'Plays of your tracks' });
  await expect(plays.getByRole('listitem').filter({ hasText: title })).toContainText('2 plays');
  await plays.scrollIntoViewIfNeeded();
  await shot('own-plays-on-the-profile');
  await expectNoAxeViolations(page);
  await shot('own-plays-dark');
  await plays.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post}$`));
  expect(csp).toEqual([]);
});
