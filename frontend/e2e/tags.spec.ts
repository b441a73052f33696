/**
 * Tags (issue 31): a `#tag` in a caption is a link to the tag's page, which lists the newest
 * posts with the tag whatever its case and accents (#Café, #CAFE and #cafe are one tag). axe
 * finds nothing on the tag page, light and dark.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

async function song(request: APIRequestContext, url: string, token: string, title: string, caption: string) {
  const made = await request.post(`${url}/posts/lyrics`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { songTitle: title, artistName: 'Tag Band', caption, parts: [{ type: 'verse', lyrics: `words of ${title}` }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  return String(((await made.json()) as { id: string }).id);
}

test('a tag in a caption leads to the newest posts with that tag', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('tags-ana', project), 'Ana Tags');
  const bob = await signedUpAccount(request, server, uniqueEmail('tags-bob', project), 'Bob Tags');
  // A tag of this run's own, so other journeys' posts are not on its page.
  const word = `Café${Math.random().toString(36).slice(2, 7)}`;
  const tag = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const first = await song(request, server.url, ana.token, 'Morning Song', `Sunday session #${word} in C#m`);
  const second = await song(request, server.url, bob.token, 'Evening Song', `#${word.toUpperCase()} again, and #lofi`);

  await signInThroughAddress(page, server.appUrl, bob.token);
  await page.goto(`${server.appUrl}/post/${first}`);
  const link = page.getByRole('link', { name: `#${word}` });
  await expect(link).toBeVisible();
  // The chord is no tag.
  await expect(page.getByRole('link', { name: '#m' })).toHaveCount(0);
  await shot('a-caption-with-a-tag');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/tag/${tag}$`));
  await expect(page.getByRole('heading', { level: 1, name: `#${tag}` })).toBeVisible();
  const posts = page.getByRole('list', { name: `Posts tagged #${tag}` }).getByRole('article');
  await expect(posts).toHaveCount(2);
  await expect(posts.nth(0)).toContainText('Evening Song');
  await expect(posts.nth(1)).toContainText('Morning Song');
  await shot('a-tag-page');
  await expectNoAxeViolations(page);
  await shot('a-tag-page-dark');
  // From a card on the tag page, another of its tags.
  await posts.nth(0).getByRole('link', { name: '#lofi' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '#lofi' })).toBeVisible();
  // Other journeys' posts may carry #lofi too: this one is there among them.
  await expect(page.getByRole('article').filter({ hasText: `#${word.toUpperCase()} again` })).toBeVisible();
  expect(second).not.toBe(first);
  expect(csp).toEqual([]);
});

test("an audio post's genre, chosen when editing it, leads to the genre's page", async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('genre-ana', project), 'Ana Genre');
  const title = `Field Recording ${Math.random().toString(36).slice(2, 7)}`;
  const made = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: { audio_files: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: toneWav(2, 440) } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = String(((await made.json()) as { id: string }).id);

  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${post}`);
  const card = page.getByRole('article', { name: 'Post by Ana Genre' });
  await card.getByRole('button', { name: 'Post options' }).click();
  await page.getByRole('menuitem', { name: 'Edit post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  await dialog.getByLabel(/Genre/).selectOption('Folk');
  await shot('choosing-a-genre');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const chip = card.getByRole('link', { name: 'Folk', exact: true });
  await expect(chip).toBeVisible();
  await shot('an-audio-post-with-its-genre');
  await chip.click();
  await expect(page.getByRole('heading', { level: 1, name: '#folk' })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: title })).toBeVisible();
});
