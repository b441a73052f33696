/**
 * Reposts (issue 31): Bob reposts Ana's song from its page; Cy, who listens to Bob (not to Ana),
 * finds it in Listened to under "Reposted by Bob", once; Ana is told "reposted your post" and
 * sees the count on her own post, with nothing to press. Undone, it leaves Cy's feed. axe finds
 * nothing on the feed with a repost, light and dark.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

test('a repost reaches the reposter’s listeners once, and its author is told', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('repost-ana', project), 'Ana Reposts');
  const bob = await signedUpAccount(request, server, uniqueEmail('repost-bob', project), 'Bob Reposts');
  const cy = await signedUpAccount(request, server, uniqueEmail('repost-cy', project), 'Cy Reposts');
  const title = `Passed On ${Math.random().toString(36).slice(2, 7)}`;
  const post = await lyricsPost(request, server.url, ana.token, title);
  const listened = await request.post(`${server.url}/profiles/listening/${bob.id}`, {
    headers: { Authorization: `Bearer ${cy.token}` },
  });
  expect(listened.ok()).toBe(true);

  // Bob reposts it from the post page.
  await signInThroughAddress(page, server.appUrl, bob.token);
  await page.goto(`${server.appUrl}/post/${post}`);
  const repost = page.getByRole('button', { name: /^Repost, / });
  await expect(repost).toHaveAccessibleName('Repost, 0 reposts');
  await expect(repost).toHaveAttribute('aria-pressed', 'false');
  await repost.click();
  await expect(repost).toHaveAttribute('aria-pressed', 'true');
  await expect(repost).toHaveAccessibleName('Repost, 1 repost');
  await shot('a-post-reposted');

  // Cy listens to Bob: the song is in Listened to, placed by Bob's repost, once.
  await signInThroughAddress(page, server.appUrl, cy.token);
  await page.goto(`${server.appUrl}/home`);
  await page.getByRole('tab', { name: 'Listened to' }).click();
  const feed = page.locator('[data-feed="listened-to"]');
  const card = feed.getByRole('article').filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card.getByText('Reposted by')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Bob Reposts' })).toHaveAttribute('href', new RegExp(`/user/${bob.id}$`));
  await expect(card.getByRole('button', { name: /^Repost, / })).toHaveAttribute('aria-pressed', 'false');
  await shot('listened-to-with-a-repost');
  await expectNoAxeViolations(page);
  await shot('listened-to-with-a-repost-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Ana is told, and sees the count on her own post with nothing to press.
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/notifications`);
  await expect(page.getByRole('link', { name: 'reposted your post' }).first()).toBeVisible();
  await shot('told-of-a-repost');
  await page.goto(`${server.appUrl}/post/${post}`);
  await expect(page.getByRole('img', { name: '1 repost' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Repost, / })).toHaveCount(0);

  // Undone by Bob, it leaves Cy's feed.
  const undone = await request.post(`${server.url}/posts/${post}/repost`, { headers: { Authorization: `Bearer ${bob.token}` } });
  expect(((await undone.json()) as { user_reposted: boolean }).user_reposted).toBe(false);
  await signInThroughAddress(page, server.appUrl, cy.token);
  await page.goto(`${server.appUrl}/home?feed=listened-to`);
  await page.getByRole('tab', { name: 'Listened to' }).click();
  await expect(page.getByText('Follow some users to see their posts here!')).toBeVisible();
  expect(csp).toEqual([]);
});
