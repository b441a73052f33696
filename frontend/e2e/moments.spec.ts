/**
 * Comments on a moment of a track (issue 31): timed comments show as avatars along the post's
 * waveform (close ones share a place, with their count), hovering one shows what was said, and
 * pressing one plays from there; in the list the time plays from there too. Writing while the
 * track plays takes its moment (a chip, removable); the new comment joins the marks at once.
 * axe finds nothing on the page, light and dark.
 */
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { expectNoAxeViolations } from './support/axe';
import { watchCsp } from './support/csp';

/** The seconds the track's seek slider is at. */
async function at(slider: Locator): Promise<number> {
  return Number(await slider.inputValue());
}

async function say(request: APIRequestContext, url: string, token: string, post: string, data: object) {
  const made = await request.post(`${url}/posts/${post}/comments`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(made.status(), await made.text()).toBe(201);
}

test('timed comments sit along the waveform and play from their moment', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('moment-ana', project), 'Ana Moments');
  const bob = await signedUpAccount(request, server, uniqueEmail('moment-bob', project), 'Bob Moments');
  const cy = await signedUpAccount(request, server, uniqueEmail('moment-cy', project), 'Cy Moments');
  const dee = await signedUpAccount(request, server, uniqueEmail('moment-dee', project), 'Dee Moments');
  const title = `Harbour Tone ${Math.random().toString(36).slice(2, 7)}`;
  const made = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: { audio_files: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: toneWav(30, 330) } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = String(((await made.json()) as { id: string }).id);
  // Two comments a fraction of a second apart share a place; one later stands alone.
  await say(request, server.url, cy.token, post, { content: 'here comes the entrance', at_ms: 5_000 });
  await say(request, server.url, bob.token, post, { content: 'goosebumps every time', at_ms: 5_300 });
  await say(request, server.url, bob.token, post, { content: 'that high note at twenty', at_ms: 20_000 });
  await say(request, server.url, cy.token, post, { content: 'a comment on the whole track' });

  await signInThroughAddress(page, server.appUrl, dee.token);
  await page.goto(`${server.appUrl}/post/${post}`);
  const marks = page.getByRole('group', { name: `Comments along ${title}` });
  const shared = marks.getByRole('button', { name: '2 comments from 0:05, the first by Cy Moments' });
  const alone = marks.getByRole('button', { name: 'Comment by Bob Moments at 0:20' });
  await expect(shared).toBeVisible();
  await expect(alone).toBeVisible();
  await expect(marks.getByRole('button')).toHaveCount(2);
  // The time of a timed comment in the list; the comment on the whole track has none.
  await expect(page.getByRole('button', { name: 'Play from at 0:05' })).toHaveCount(2);
  await expect(page.getByRole('article', { name: 'Comment by Cy Moments' }).getByRole('button', { name: /^Play from/ })).toHaveCount(1);

  // Hovering (a phone: focusing) a place shows what was said there.
  if (project === 'phone') await shared.focus();
  else await shared.hover();
  const card = page.getByRole('tooltip').filter({ hasText: 'goosebumps every time' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('here comes the entrance');
  await shot('moments-along-the-waveform');

  // Pressing a mark plays from its moment.
  // The post's own slider (the now-playing bar has one too).
  const slider = page.getByRole('slider', { name: `Seek ${title}` }).first();
  const bar = page.getByRole('region', { name: 'Now playing' });
  await alone.click();
  await expect(bar.getByRole('button', { name: `Pause ${title}` })).toBeVisible();
  await expect.poll(() => at(slider)).toBeGreaterThanOrEqual(20);
  // The time in the list too.
  await page.getByRole('button', { name: 'Play from at 0:05' }).first().click();
  await expect.poll(() => at(slider)).toBeLessThan(12);
  await expect.poll(() => at(slider)).toBeGreaterThanOrEqual(5);

  // Writing while it plays takes the moment it is at; the comment joins the marks.
  const box = page.getByRole('textbox', { name: 'Write a comment' });
  await box.fill('the bass comes in');
  const chip = page.getByRole('button', { name: /^Remove the time \(at 0:\d\d\)$/ });
  await expect(chip).toBeVisible();
  const taken = (await chip.getAttribute('aria-label'))!.match(/at (0:\d\d)/)![1]!;
  await shot('moment-chip-in-the-composer');
  await page.getByRole('button', { name: 'Publish' }).click();
  const mine = page.getByRole('article', { name: 'Comment by Dee Moments' }).filter({ hasText: 'the bass comes in' });
  await expect(mine.getByRole('button', { name: `Play from at ${taken}` })).toBeVisible();
  // Its mark: beside the two at 0:05, or on a place of its own.
  await expect(marks.getByRole('button', { name: /^(3 comments from 0:05|Comment by Dee Moments at)/ })).toHaveCount(1);
  const shown = await request.get(`${server.url}/posts/${post}/moments`);
  expect(((await shown.json()) as unknown[]).length).toBe(4);

  // A comment whose time is removed is on the whole track; 'Add the time' takes it again.
  await box.fill('no time on this one');
  await page.getByRole('button', { name: /^Remove the time/ }).click();
  await expect(page.getByRole('button', { name: 'Add the time' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  const untimed = page.getByRole('article', { name: 'Comment by Dee Moments' }).filter({ hasText: 'no time on this one' });
  await expect(untimed).toBeVisible();
  await expect(untimed.getByRole('button', { name: /^Play from/ })).toHaveCount(0);
  await page.getByRole('button', { name: `Pause ${title}` }).first().click();
  await page.getByRole('button', { name: 'Add the time' }).click();
  await expect(page.getByRole('button', { name: /^Remove the time \(at 0:\d\d\)$/ })).toBeVisible();

  await expectNoAxeViolations(page);
  // The place at 0:05 may hold Dee's comment too by now.
  const place = marks.getByRole('button', { name: /comments from 0:05/ });
  if (project === 'phone') await place.focus();
  else await place.hover();
  await shot('moments-dark');
  expect(csp).toEqual([]);
});
