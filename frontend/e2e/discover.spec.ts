/**
 * Discover (issue 31): a song liked and reposted this week trends, its tag is among the tags
 * trending now, and someone the people one listens to listen to is suggested, with a Listen
 * button that works (listened to, they leave the suggestions). axe finds nothing on the page, light and dark.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

test('Discover shows what trends, its tags and people to listen to', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('discover-ana', project), 'Ana Finds');
  const bob = await signedUpAccount(request, server, uniqueEmail('discover-bob', project), 'Bob Finds');
  const cy = await signedUpAccount(request, server, uniqueEmail('discover-cy', project), 'Cy Finds');
  const word = `trend${Math.random().toString(36).slice(2, 7)}`;
  const title = `Rising Tune ${word}`;
  const made = await request.post(`${server.url}/posts/lyrics`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    data: { songTitle: title, artistName: 'Finds', caption: `new one #${word}`, parts: [{ type: 'verse', lyrics: 'la la' }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = String(((await made.json()) as { id: string }).id);
  const as = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
  expect((await request.post(`${server.url}/posts/${post}/like`, as(bob.token))).ok()).toBe(true);
  expect((await request.post(`${server.url}/posts/${post}/repost`, as(bob.token))).ok()).toBe(true);
  expect((await request.post(`${server.url}/posts/${post}/like`, as(cy.token))).ok()).toBe(true);
  expect((await request.post(`${server.url}/profiles/listening/${bob.id}`, as(cy.token))).ok()).toBe(true);
  expect((await request.post(`${server.url}/profiles/listening/${ana.id}`, as(bob.token))).ok()).toBe(true);

  await signInThroughAddress(page, server.appUrl, cy.token);
  await page.goto(`${server.appUrl}/home`);
  await page.locator('[data-nav="discover"]:visible').first().click();
  await expect(page).toHaveURL(/\/discover$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Trending this week' }).getByRole('article').filter({ hasText: title })).toBeVisible();
  await expect(page.getByRole('list', { name: 'New and rising' }).getByRole('article').filter({ hasText: title })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tags trending now' }).getByRole('link', { name: new RegExp(`^#${word}`) })).toBeVisible();
  const people = page.getByRole('region', { name: 'People to listen to' });
  const suggested = people.getByRole('listitem').filter({ hasText: 'Ana Finds' });
  await expect(suggested).toContainText('Listened to by 1 person you listen to');
  await shot('discover');
  await expectNoAxeViolations(page);
  await shot('discover-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // Listened to, Ana is no suggestion any more (Discover is read again).
  await suggested.getByRole('button', { name: 'Listen' }).click();
  await expect(people.getByRole('listitem').filter({ hasText: 'Ana Finds' })).toHaveCount(0);
  const listened = await request.get(`${server.url}/profiles/listened?limit=50`, as(cy.token));
  expect(JSON.stringify(await listened.json())).toContain(ana.id);
  expect(csp).toEqual([]);
});
