/**
 * A score that follows a recording (issue 35), in real Chromium with a real track: its author
 * links a score (a repeat, a tempo change) to a recording the test makes — a tone sequence whose
 * bars start at known moments, slower than the score's own tempo — by tapping along it, corrects
 * a tap by dragging its marker on the waveform, and saves. Then "Play with recording" plays the
 * track while the cursor is in the right bar at each sync point (through the repeat), clicking a
 * bar seeks the recording there, an A–B loop wraps at B (read off the element's clock) and
 * slowed down the recording keeps its pitch. On the track's page, "Score" shows the score
 * following along.
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { pitch, toneSequenceWav, watchMedia } from './support/audio';
import { lastMeasureCentre, postScore } from './support/scores';

const note = (step: string, octave: number) =>
  `<note><pitch><step>${step}</step><octave>${octave}</octave></pitch><duration>4</duration><type>whole</type></note>`;

/** Bars 1-2 repeated at ♩ = 240, bar 3 at ♩ = 120: played 1 2 1 2 3 (6 s at its own tempo). */
const SCORE = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Flute</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1"><attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes><sound tempo="240"/>${note('E', 4)}</measure>
    <measure number="2">${note('A', 4)}<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"/></barline></measure>
    <measure number="3"><sound tempo="120"/>${note('E', 5)}</measure>
  </part>
</score-partwise>
`;

/** When each performed bar starts in the recording (s), the bar it is, and its tone. */
const BARS = [
  { at: 0.5, written: '1', hz: 330 },
  { at: 2.0, written: '2', hz: 440 },
  { at: 3.5, written: '1', hz: 330 },
  { at: 5.0, written: '2', hz: 440 },
  { at: 6.5, written: '3', hz: 660 },
];
const RECORDING = toneSequenceWav(10, [{ from: 0, hz: 0 }, ...BARS.map((b) => ({ from: b.at, hz: b.hz })), { from: 9, hz: 0 }]);

type Sample = { at: number; measure: string };

/** Starts keeping what the cursor shows (the recording's second it is placed for, and its bar). */
async function watchCursor(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __cursor: Sample[]; __cursorWatch?: MutationObserver };
    w.__cursor = [];
    w.__cursorWatch?.disconnect();
    const el = document.querySelector<HTMLElement>('[data-score-cursor]');
    if (!el) return;
    w.__cursorWatch = new MutationObserver(() => {
      if (!el.hidden && el.dataset.at && el.dataset.measure) w.__cursor.push({ at: Number(el.dataset.at), measure: el.dataset.measure });
    });
    w.__cursorWatch.observe(el, { attributes: true, attributeFilter: ['data-at'] });
  });
}

const samples = (page: Page) => page.evaluate(() => (window as unknown as { __cursor: Sample[] }).__cursor);

/** The playing element: where it is, its rate and whether it keeps its pitch. */
const element = (page: Page) =>
  page.evaluate(() => {
    const el = (window as unknown as { __media: HTMLMediaElement[] }).__media.at(-1);
    return el ? { at: el.currentTime, rate: el.playbackRate, keeps: el.preservesPitch, paused: el.paused } : null;
  });

test('a score follows a recording its author taps along', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await watchMedia(page);
  const ana = await signedUpAccount(request, server, uniqueEmail('follow', testInfo.project.name), 'Ana Follows');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const take = `Flute take ${testInfo.project.name}`;
  const posted = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: `${take}.wav`, mimeType: 'audio/wav', buffer: RECORDING } },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const audioId = String(((await posted.json()) as { id: string }).id);
  const title = `Repeat etude ${testInfo.project.name}`;
  const scoreId = await postScore(request, server.url, ana.token, { name: 'etude.musicxml', mimeType: 'application/xml', buffer: Buffer.from(SCORE) }, title);
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${scoreId}`);
  const figure = page.getByRole('figure', { name: `Score: ${title}` });
  await expect(figure).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Play with recording' })).toHaveCount(0);

  // Linked to her take, then tapped along it: one tap at the start of each bar as it plays.
  await page.getByRole('button', { name: 'Link a recording' }).click();
  await page.getByLabel('One of your tracks').selectOption({ index: 1 });
  const tapper = page.locator('[data-sync-tapper]');
  await expect(tapper.getByRole('status')).toHaveText('0 of 5 bars tapped · Next: bar 1');
  await tapper.getByRole('button', { name: 'Play recording' }).click();
  await page.evaluate(async (times) => {
    const el = (window as unknown as { __media: HTMLMediaElement[] }).__media.at(-1);
    const button = document.querySelector('[data-sync-tap]');
    if (!el || !button) throw new Error('nothing to tap along');
    for (const t of times) {
      while (el.currentTime < t) await new Promise((r) => setTimeout(r, 4));
      button.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    }
  }, BARS.map((b) => b.at));
  await expect(tapper.getByRole('status')).toHaveText('5 of 5 bars tapped · Every bar is tapped.');
  await tapper.getByRole('button', { name: 'Pause' }).click();

  // A tap corrected: the last bar's marker dragged later, then back with the arrow keys.
  const marker = tapper.locator('[data-sync-marker="4"]');
  const before = Number(await marker.getAttribute('data-at-ms'));
  // In the middle of the window, clear of the now-playing bar.
  await marker.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await marker.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const dragged = Number(await marker.getAttribute('data-at-ms'));
  expect(dragged).toBeGreaterThan(before + 100);
  await shot('score-sync-tapping');
  await marker.focus();
  while (Number(await marker.getAttribute('data-at-ms')) > before + 10) await page.keyboard.press('ArrowLeft');
  await tapper.getByRole('button', { name: 'Save sync' }).click();
  await expect(tapper).toHaveCount(0);
  await expect(page.locator('[data-score-recording]')).toHaveAttribute('data-score-recording', audioId);

  // The map as stored: each bar within a few frames of when it starts.
  const stored = (await (await request.get(`${server.url}/posts/${scoreId}/recordings`)).json()) as Array<{ points: Array<{ bar: number; at_ms: number }> }>;
  expect(stored).toHaveLength(1);
  const points = stored[0]!.points;
  expect(points.map((p) => p.bar)).toEqual([0, 1, 2, 3, 4]);
  points.forEach((p, i) => expect(Math.abs(p.at_ms / 1000 - (BARS[i]?.at ?? 0))).toBeLessThan(0.1));
  const tapped = points.map((p) => p.at_ms / 1000);

  // Played with the recording from bar 1: at each sync point the cursor moves into its bar.
  await page.getByRole('button', { name: 'Play with recording' }).click();
  await expect(page.getByRole('button', { name: 'Play with recording' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Pause recording' }).click();
  await watchCursor(page);
  await page.getByRole('spinbutton', { name: 'Start at bar' }).fill('1');
  await page.getByRole('button', { name: 'Play from bar' }).click();
  await expect.poll(async () => (await element(page))?.paused).toBe(false);
  await expect.poll(async () => (await element(page))?.paused, { timeout: 20_000 }).toBe(true);
  const seen = await samples(page);
  const inBar = (from: number, to: number) => [...new Set(seen.filter((s) => s.at > from && s.at < to).map((s) => s.measure))];
  tapped.forEach((t, i) => {
    const bar = BARS[i]!.written;
    expect(inBar(t + 0.02, t + 0.25), `just after sync point ${i + 1}`).toEqual([bar]);
    if (i > 0) expect(inBar(t - 0.25, t - 0.02), `just before sync point ${i + 1}`).toEqual([BARS[i - 1]!.written]);
  });
  expect(seen.some((s) => s.at < tapped[0]! + 0.3), 'played from bar 1').toBe(true);
  await shot('score-with-recording');

  // Clicking bar 3 seeks the recording there.
  // The middle of the last measure drawn (the third).
  const third = await lastMeasureCentre(page);
  expect(third).not.toBeNull();
  await page.mouse.click(third!.x, third!.y);
  await expect(page.locator('[data-score-cursor]')).toHaveAttribute('data-measure', '3');
  const at = (await element(page))?.at ?? 0;
  expect(at).toBeGreaterThan(tapped[4]! - 0.05);
  expect(at).toBeLessThan(tapped[4]! + 1);
  await page.getByRole('button', { name: 'Pause recording' }).click();

  // Bar 2 looped at half speed: the recording wraps at the end of bar 2 (its next point) and
  // keeps its pitch.
  await page.getByRole('slider', { name: 'Speed' }).fill('50');
  await page.getByRole('spinbutton', { name: 'Loop bars: first' }).fill('2');
  await page.getByRole('spinbutton', { name: 'Loop bars: last' }).fill('2');
  await watchCursor(page);
  await page.getByRole('button', { name: 'Loop these bars' }).click();
  await expect.poll(async () => (await element(page))?.rate).toBe(0.5);
  expect((await element(page))?.keeps).toBe(true);
  const heard = await pitch(page);
  console.log(`bar 2 at 50 %: ${heard.toFixed(1)} Hz`);
  expect(Math.abs(heard - 440) / 440).toBeLessThan(0.02);
  await expect.poll(async () => {
    const list = await samples(page);
    return list.some((s, i) => i > 0 && s.at < list[i - 1]!.at - 1);
  }, { timeout: 15_000 }).toBe(true);
  const looped = await samples(page);
  const [a, b] = [tapped[1]!, tapped[2]!];
  const latest = Math.max(...looped.map((s) => s.at));
  console.log(`loop ${a.toFixed(3)}–${b.toFixed(3)} s: latest cursor at ${latest.toFixed(3)} s`);
  expect(latest).toBeLessThan(b + 0.05);
  expect(Math.min(...looped.map((s) => s.at))).toBeGreaterThan(a - 0.05);
  expect([...new Set(looped.map((s) => s.measure))]).toEqual(['2']);
  await page.getByRole('button', { name: 'Stop looping' }).click();
  await page.getByRole('button', { name: 'Pause recording' }).click();

  // On the take's page, a comment on bar 3 of the score is marked along the take where the
  // map puts bar 3; "Score" opens the score, following the take as it plays.
  const said = await request.post(`${server.url}/posts/${scoreId}/comments`, { headers, data: { content: 'Breathe before bar 3', bar: 3 } });
  expect(said.status(), await said.text()).toBe(201);
  await page.goto(`${server.appUrl}/post/${audioId}`);
  const onTake = page.getByRole('group', { name: `Comments along ${take}` }).getByRole('button', { name: 'Comment by Ana Follows at 0:06' });
  await expect(onTake).toBeVisible({ timeout: 15_000 });
  await onTake.click();
  await expect.poll(async () => (await element(page))?.at ?? 0).toBeGreaterThan(tapped[4]! - 0.05);
  expect((await element(page))?.at ?? 0).toBeLessThan(tapped[4]! + 1.5);
  await page.getByRole('region', { name: 'Now playing' }).getByRole('button', { name: `Pause ${take}` }).click();
  await page.getByRole('button', { name: 'Score', exact: true }).click();
  const shown = page.getByRole('figure', { name: `Score: ${title}` });
  await expect(shown).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await watchCursor(page);
  await shown.getByRole('button', { name: 'Play recording' }).click();
  await expect(shown.getByRole('button', { name: 'Pause recording' })).toBeVisible();
  await expect(shown.locator('[data-score-cursor]')).toHaveAttribute('data-measure', '3');
  await shown.getByRole('button', { name: 'Play from bar' }).click();
  await expect.poll(async () => (await samples(page)).map((s) => s.measure).includes('2'), { timeout: 10_000 }).toBe(true);
  await shot('recording-with-score');
  expect(errors).toEqual([]);
});

test('a comment on bars sits over them and plays them', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const ana = await signedUpAccount(request, server, uniqueEmail('bars', testInfo.project.name), 'Ana Bars');
  const title = `Bars etude ${testInfo.project.name}`;
  const scoreId = await postScore(request, server.url, ana.token, { name: 'etude.musicxml', mimeType: 'application/xml', buffer: Buffer.from(SCORE) }, title);
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${scoreId}`);
  await expect(page.getByRole('figure', { name: `Score: ${title}` })).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });

  // Bars 2-3 looped, a comment written now is on them.
  await page.getByRole('spinbutton', { name: 'Loop bars: first' }).fill('2');
  await page.getByRole('spinbutton', { name: 'Loop bars: last' }).fill('3');
  await page.getByRole('button', { name: 'Loop these bars' }).click();
  await expect(page.getByRole('button', { name: 'Stop looping' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Write a comment' }).fill('The repeat sign is easy to miss here');
  await expect(page.getByRole('button', { name: 'Remove the bars (bars 2–3)' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  const mine = page.getByRole('article', { name: 'Comment by Ana Bars' });
  await expect(mine.getByRole('button', { name: 'Play bars 2–3' })).toBeVisible();

  // Over bar 2 of the score, its mark; both it and the comment's bars play them again.
  const mark = page.getByRole('button', { name: 'Ana Bars on bars 2–3: The repeat sign is easy to miss here' });
  await expect(mark).toBeVisible();
  await page.getByRole('button', { name: 'Stop looping' }).click();
  await page.getByRole('button', { name: 'Pause score' }).click();
  await mark.click();
  await expect(page.getByRole('button', { name: 'Stop looping' })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Loop bars: first' })).toHaveValue('2');
  await shot('score-bar-comment');
  await page.getByRole('button', { name: 'Stop looping' }).click();
  await mine.getByRole('button', { name: 'Play bars 2–3' }).click();
  await expect(page.getByRole('button', { name: 'Stop looping' })).toBeVisible();
  await page.getByRole('button', { name: 'Pause score' }).click();
  expect(errors).toEqual([]);
});
