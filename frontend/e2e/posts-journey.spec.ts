/**
 * Posts in a real browser against the real server: each type created from its page with real
 * files, seen in the feeds, audio played with its waveform, a picture opened full size, a score
 * engraved on its post page, likes that survive a reload, a comment with a mention picked by
 * keyboard, Load More without duplicates while someone posts, a blocked author's posts gone, and
 * deleting one's own post.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount, type Account } from './support/accounts';
import { toneWav } from './support/audio';
import { gradientPng } from './support/images';

/** Someone signed up through the API, named after this test's project. */
function account(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  prefix: string,
  name: string,
  testInfo: TestInfo,
): Promise<Account> {
  return signedUpAccount(request, server, uniqueEmail(prefix, testInfo.project.name), name);
}

const SCORE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work><work-title>Little Etude</work-title></work>
  <identification><creator type="composer">Clara E2E</creator></identification>
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
      <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>C</step><octave>5</octave></pitch><duration>1</duration><type>quarter</type></note>
    </measure>
  </part>
</score-partwise>
`;

/** The ids of the posts a feed shows, from their comment links. */
async function shownPostIds(page: Page, feed: string): Promise<string[]> {
  const hrefs = await page
    .locator(`[data-feed="${feed}"] article`)
    .evaluateAll((cards) =>
      cards.map((card) => card.querySelector('a[href*="/post/"]')?.getAttribute('href') ?? card.id),
    );
  return hrefs.map((h) => h.split('/post/')[1] ?? h);
}

test('an author shares all four types; the feed plays, opens, engraves, likes and discusses them', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(180_000);
  const ana = await account(request, server, 'poster', 'Ana Poster', testInfo);
  const mira = await account(request, server, 'mira', 'Mira Mentioned', testInfo);
  const dir = testInfo.outputPath();
  const files = {
    audio: join(dir, 'Morning Take.wav'),
    image: join(dir, 'stage.png'),
    score: join(dir, 'etude.musicxml'),
  };
  writeFileSync(files.audio, toneWav(4, 330));
  writeFileSync(files.image, gradientPng(900));
  writeFileSync(files.score, SCORE);
  // Both projects run at once against one server: each post carries this run's tag.
  const tag = `${testInfo.project.name}-${Math.random().toString(36).slice(2, 6)}`;
  await signInThroughAddress(page, server.appUrl, ana.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  // Audio: the title comes from the file name; the page goes to / and on to /home.
  await page.goto(`${server.appUrl}/add-post-audio`);
  await page.getByLabel('Audio files').setInputFiles(files.audio);
  await expect(page.getByLabel('Title')).toHaveValue('Morning Take');
  await page.getByLabel(/Caption/).fill(`First take ${tag}`);
  await shot('posts-create-audio');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`, { timeout: 20_000 });

  await page.goto(`${server.appUrl}/add-post-media`);
  await page.getByLabel('Photos and videos').setInputFiles(files.image);
  await page.getByLabel(/Caption/).fill(`Soundcheck tonight ${tag}`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`, { timeout: 20_000 });

  await page.goto(`${server.appUrl}/add-post-musicxml`);
  await page.getByLabel('MusicXML files').setInputFiles(files.score);
  await page.getByLabel(/Caption/).fill(`Score ${tag}`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`, { timeout: 20_000 });

  await page.goto(`${server.appUrl}/add-post-lyrics`);
  await page.getByLabel('Song title').fill(`Night Drive ${tag}`);
  await page.getByLabel('Artist').fill('Ana');
  await page.getByLabel('Part 1 type').selectOption('chorus');
  await page.getByLabel('Part 1 lyrics').fill('Headlights on the river\nwe sing along');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`, { timeout: 20_000 });

  // For you shows all four.
  const card = (type: string, text: string) =>
    page.locator(`[data-feed="for-you"] article[data-post-type="${type}"]`).filter({ hasText: text });
  await expect(card('lyrics', `Night Drive ${tag}`)).toBeVisible();
  await expect(card('musicxml', `Score ${tag}`)).toContainText('Little Etude');
  await expect(card('media', `Soundcheck tonight ${tag}`)).toBeVisible();
  await expect(card('audio', `First take ${tag}`)).toContainText('Morning Take');
  await shot('posts-feed', { fullPage: true });

  // Play: the button flips, time advances, the waveform is drawn.
  const audio = card('audio', `First take ${tag}`);
  const play = audio.getByRole('button', { name: 'Play Morning Take' });
  await play.scrollIntoViewIfNeeded();
  await play.click();
  await expect(audio.getByRole('button', { name: 'Pause Morning Take' })).toBeVisible();
  const track = audio.getByRole('group', { name: /Morning Take by/ });
  await expect(track.locator('canvas')).toBeVisible();
  await expect(track.getByText(/0:0[1-4]/).first()).toBeVisible({ timeout: 10_000 });
  await shot('posts-playing');

  // The picture opens full size and closes.
  await card('media', `Soundcheck tonight ${tag}`).getByRole('button', { name: /^Open / }).first().click();
  const overlay = page.getByRole('dialog', { name: /Full-size/ });
  await expect(overlay).toBeVisible();
  await shot('posts-overlay');
  await overlay.getByRole('button', { name: 'Close' }).click();
  await expect(overlay).toBeHidden();

  // Like, reload: still liked.
  const lyricsCard = card('lyrics', `Night Drive ${tag}`);
  await lyricsCard.getByRole('button', { name: /^Like, 0 likes/ }).click();
  await expect(lyricsCard.getByRole('button', { name: /^Like, 1 like/ })).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(lyricsCard.getByRole('button', { name: /^Like, 1 like/ })).toHaveAttribute('aria-pressed', 'true');

  // The score is engraved on its post page (an SVG drawn by OpenSheetMusicDisplay).
  await card('musicxml', `Score ${tag}`).getByRole('link', { name: /Open score/ }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const score = page.getByRole('figure', { name: /^Score: / }).first();
  await expect(score.locator('svg[id^="osmdSvgPage"]')).toBeVisible({ timeout: 30_000 });
  await expect(score.locator('svg[id^="osmdSvgPage"] path').first()).toBeAttached();
  await expect(page.getByText('Clara E2E').first()).toBeVisible();
  await shot('posts-score-page', { fullPage: true });

  // A comment mentioning Mira, picked from the list by keyboard, becomes a link to her profile.
  const box = page.getByPlaceholder("What's on your mind?");
  await box.fill('Play it with ');
  await box.pressSequentially(`@${mira.login.slice(0, 8)}`);
  const picker = page.getByRole('listbox', { name: 'People to mention' });
  await expect(picker.getByRole('option').first()).toBeVisible();
  const position = (await picker.getByRole('option').allInnerTexts()).findIndex((t) => t.includes(`@${mira.login}`));
  expect(position).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < position; i++) await box.press('ArrowDown');
  await box.press('Enter');
  await expect(box).toHaveValue(new RegExp(`@${mira.login} $`));
  await box.pressSequentially('tonight!');
  await page.getByRole('button', { name: 'Publish' }).click();
  const comment = page.getByRole('link', { name: `@${mira.login}` }).first();
  await expect(comment).toBeVisible();
  await expect(comment).toHaveAttribute('href', new RegExp(`/user/${mira.id}$`));
  await shot('posts-comment');

  // Ana deletes her lyrics post.
  await page.goto(`${server.appUrl}/home`);
  const own = card('lyrics', `Night Drive ${tag}`);
  await own.getByRole('button', { name: 'Post options' }).click();
  await page.getByRole('menuitem', { name: 'Delete post' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(own).toHaveCount(0);
});

test('Load More never repeats a post while others post; a blocked author vanishes; Listened to', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const writer = await account(request, server, 'writer', 'Wren Writer', testInfo);
  const reader = await account(request, server, 'reader', 'Rita Reader', testInfo);
  const tag = `${testInfo.project.name}-${Math.random().toString(36).slice(2, 6)}`;
  for (let i = 0; i < 25; i++) await lyricsPost(request, server.url, writer.token, `Verse ${i} ${tag}`);
  await signInThroughAddress(page, server.appUrl, reader.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  const forYou = page.locator('[data-feed="for-you"]');
  await expect(forYou.locator('article')).toHaveCount(10);
  await lyricsPost(request, server.url, writer.token, `Fresh meanwhile ${tag}`);
  await forYou.getByRole('button', { name: 'Load More' }).click();
  await expect(forYou.locator('article')).toHaveCount(20);
  await forYou.getByRole('button', { name: 'Load More' }).click();
  await expect.poll(() => forYou.locator('article').count()).toBeGreaterThanOrEqual(25);
  const ids = await shownPostIds(page, 'for-you');
  expect(new Set(ids).size).toBe(ids.length);
  await expect(forYou.getByText(`Fresh meanwhile ${tag}`)).toHaveCount(0);
  await shot('posts-load-more');

  // Listened to: empty until the reader listens to the writer.
  await page.getByRole('tab', { name: 'Listened to' }).click();
  await expect(page.getByText('Follow some users to see their posts here!')).toBeVisible();
  await request.post(`${server.url}/profiles/listening/${writer.id}`, {
    headers: { Authorization: `Bearer ${reader.token}` },
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Listened to' }).click();
  await expect(page.locator('[data-feed="listened-to"] article').first()).toContainText(`Fresh meanwhile ${tag}`);

  await expect(page.locator(`[data-feed="listened-to"] a[href$="/user/${writer.id}"]`).first()).toBeAttached();

  // Blocking the writer takes every post of theirs out of the reader's feeds.
  await request.post(`${server.url}/profiles/blocks/${writer.id}`, {
    headers: { Authorization: `Bearer ${reader.token}` },
  });
  await lyricsPost(request, server.url, reader.token, `Reader was here ${tag}`);
  // The reload keeps Listened to open (the feed is in the address).
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'For you' }).click();
  await expect(page.locator('[data-feed="for-you"]').getByText(`Reader was here ${tag}`).first()).toBeVisible();
  await expect(page.locator(`[data-feed="for-you"] a[href$="/user/${writer.id}"]`)).toHaveCount(0);
  await shot('posts-after-block');
});
