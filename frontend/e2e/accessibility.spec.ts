/**
 * axe-core on every screen and dialog at both widths, light and dark (issue 19 item 8): no
 * violation, as a guest, a member and an admin. axe runs inside the page through the DevTools protocol, so the
 * app's Content-Security-Policy stays on (and no CSP report may come of it).
 */
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, settled, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signedUpAccount, signInThroughAddress } from './support/accounts';
import { toneWav } from './support/audio';
import { watchCsp } from './support/csp';
import { binaryPath } from './support/server';

/** The violations axe finds on the page as it is now, one line each. */
async function violations(page: Page, screen: string): Promise<string[]> {
  await settled(page);
  const found = await new AxeBuilder({ page }).analyze();
  return found.violations.flatMap((v) =>
    v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) at ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  );
}

interface Fixtures {
  page: Page;
  request: APIRequestContext;
  server: { url: string; appUrl: string; dataDir: string };
}

/** Every screen and dialog, checked by axe, on a device set to `scheme`. */
async function everyScreen(scheme: 'light' | 'dark', { page, request, server }: Fixtures, testInfo: TestInfo) {
  await page.emulateMedia({ colorScheme: scheme });
  const csp = watchCsp(page);
  const project = `${testInfo.project.name}-${scheme}`;
  const found: string[] = [];
  const check = async (screen: string) => found.push(...(await violations(page, screen)));
  const visit = async (path: string, ready: (p: Page) => Promise<unknown>) => {
    await page.goto(`${server.appUrl}${path}`);
    await ready(page);
    await check(path);
  };
  const heading = (name: string | RegExp) => (p: Page) => expect(p.getByRole('heading', { name }).first()).toBeVisible();

  const ana = await signedUpAccount(request, server, uniqueEmail('axe-ana', project), 'Ana Axe');
  const ben = await signedUpAccount(request, server, uniqueEmail('axe-ben', project), 'Ben Axe');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const lyrics = await lyricsPost(request, server.url, ana.token, `Axe Song ${project}`);
  const audio = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: 'axe.wav', mimeType: 'audio/wav', buffer: toneWav(3, 330) } },
  });
  expect(audio.status(), await audio.text()).toBe(201);
  // Lyrics whose parts repeat (a chorus twice): no two landmarks of a page share a name.
  const chorus = { type: 'Chorus', lyrics: 'sing it again\nand again' };
  const repeated = await request.post(`${server.url}/posts/lyrics`, {
    headers,
    data: {
      songTitle: `Axe Chorus ${project}`,
      artistName: 'Ana',
      parts: [chorus, { type: 'Verse', lyrics: 'a verse between' }, chorus],
    },
  });
  expect(repeated.status(), await repeated.text()).toBe(201);
  const repeatedId = String(((await repeated.json()) as { id: string }).id);
  // A score of two parts: its page shows the player, with mute and solo for each part.
  const part = (id: string, name: string) => `<score-part id="${id}"><part-name>${name}</part-name></score-part>`;
  const measure = '<measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>' +
    '<note><pitch><step>C</step><octave>5</octave></pitch><duration>4</duration><type>whole</type></note></measure>';
  const scoreXml = `<?xml version="1.0" encoding="UTF-8"?><score-partwise version="4.0"><part-list>${part('P1', 'Flute')}${part('P2', 'Cello')}</part-list>` +
    `<part id="P1">${measure}</part><part id="P2">${measure}</part></score-partwise>`;
  const scorePost = await request.post(`${server.url}/posts/musicxml`, {
    headers,
    multipart: {
      musicxml_files: { name: 'axe.musicxml', mimeType: 'application/xml', buffer: Buffer.from(scoreXml) },
      titles: `Axe Duet ${project}`,
      composers: 'Ana',
    },
  });
  expect(scorePost.status(), await scorePost.text()).toBe(201);
  const score = String(((await scorePost.json()) as { id: string }).id);
  await request.post(`${server.url}/posts/${lyrics}/comments`, {
    headers: { Authorization: `Bearer ${ben.token}` },
    data: { content: `@${ana.login} lovely` },
  });
  await request.post(`${server.url}/profiles/listening/${ana.id}`, { headers: { Authorization: `Bearer ${ben.token}` } });

  // A guest.
  for (const [path, name] of [
    ['/sign-in', 'Welcome back'],
    ['/sign-up', /Create/],
    ['/forgot-password', /password/i],
    ['/about-selfsound', /voice/i],
    ['/premium', /Premium/],
    ['/support', /Support/],
    ['/about-us', /About/],
    ['/advertisers', /Advertis/],
    ['/terms', /Terms/],
    ['/privacy', /Privacy/],
    ['/socials/discord', /Discord/],
    ['/no-such-page', /not found/i],
  ] as const) {
    await visit(path, heading(name));
  }
  // The feed is shared with journeys running beside this one: any post will do.
  await visit('/home', (p) => expect(p.locator('[data-feed="for-you"] article').first()).toBeVisible());
  await visit(`/post/${lyrics}`, (p) => expect(p.getByText('lovely').first()).toBeVisible());
  await visit(`/profile/${ana.id}`, heading('Ana Axe'));
  await visit(`/post/${repeatedId}`, (p) => expect(p.getByText('a verse between').first()).toBeVisible());
  await visit('/search', (p) => expect(p.getByRole('searchbox').or(p.getByRole('textbox')).first()).toBeVisible());
  await visit(`/search?tab=music&q=${encodeURIComponent(`Axe Song ${project}`)}`, (p) =>
    expect(p.getByRole('article').first()).toBeVisible(),
  );
  await visit(`/post/${score}`, (p) => expect(p.getByRole('button', { name: 'Play score' })).toBeVisible());
  await page.getByText('Parts (2)').click();
  await expect(page.getByRole('button', { name: 'Solo Cello' })).toBeVisible();
  await check('score player parts');

  // A member: Ana, mentioned in Ben's comment (a notification); then Ben, who listens to her.
  await signInThroughAddress(page, server.appUrl, ana.token);
  await visit('/home', (p) => expect(p.locator('[data-feed="for-you"] article').first()).toBeVisible());
  await page.getByRole('button', { name: 'Add post' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('add post chooser');
  await page.keyboard.press('Escape');
  for (const path of ['/add-post-media', '/add-post-audio', '/add-post-musicxml', '/add-post-lyrics']) {
    await visit(path, heading(/post|Share|New/i));
  }
  await visit('/notifications', heading('Notifications'));
  await visit('/settings', heading('Settings'));
  await visit('/profile', heading('Ana Axe'));
  await page.getByRole('button', { name: /Edit profile/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('edit profile');
  await page.keyboard.press('Escape');
  await visit(`/post/${lyrics}`, (p) => expect(p.getByText('lovely').first()).toBeVisible());
  await page.getByRole('button', { name: /More|options|menu/i }).first().click();
  await check('post menu');
  await page.getByRole('menuitem', { name: 'Edit post' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit post' })).toBeVisible();
  await check('edit post');
  await page.keyboard.press('Escape');

  await signInThroughAddress(page, server.appUrl, ben.token);
  await visit('/home?feed=listened-to', (p) => expect(p.getByText(`Axe Song ${project}`).first()).toBeVisible());
  await visit(`/profile/${ana.id}`, heading('Ana Axe'));
  await page.getByRole('button', { name: /More|options|menu/i }).first().click();
  await check('profile menu');
  await page.keyboard.press('Escape');
  await visit(`/post/${lyrics}`, (p) => expect(p.getByText('lovely').first()).toBeVisible());
  await page.getByRole('button', { name: /More|options|menu/i }).first().click();
  await page.getByRole('menuitem', { name: /Report/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('report dialog');
  await page.keyboard.press('Escape');
  const own = page.getByRole('article', { name: 'Comment by Ben Axe' });
  await own.getByRole('button', { name: 'Comment options' }).click();
  await own.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(own.getByRole('textbox', { name: 'Edit your comment' })).toBeFocused();
  await check('comment editor');
  await page.keyboard.press('Escape');

  // An admin.
  execFileSync(binaryPath(), ['admin', 'grant', ben.email], {
    env: { ...process.env, SELFSOUND_DATA_DIR: server.dataDir, RUST_LOG: 'warn' },
  });
  await request.post(`${server.url}/reports`, {
    headers: { Authorization: `Bearer ${ben.token}` },
    data: { post_id: lyrics, reason: 'spam' },
  });
  await visit('/admin/a', heading('Analytics'));
  await visit('/admin/c', heading(/Complaints/));
  await visit('/admin/s', heading(/Suspended/));

  expect(found, found.join('\n')).toEqual([]);
  expect(csp).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen and dialog has no accessibility violation, for a guest, a member and an admin (${scheme})`, async ({
    page,
    request,
    server,
  }, testInfo) => {
    // About 40 screens and dialogs, each checked by axe: 2.5-3.3 minutes under CI's load.
    test.setTimeout(300_000);
    await everyScreen(scheme, { page, request, server }, testInfo);
  });
}
