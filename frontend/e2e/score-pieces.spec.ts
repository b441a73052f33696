/**
 * A big score drawn a piece at a time (issue 34 item 1), in real Chromium: a quartet of 320
 * measures (about 1.4 MB, as a Beethoven movement) shows its first systems while the rest is
 * still being drawn, ends drawn whole in pieces that join as one score, and plays from a measure
 * clicked in its last piece with the cursor there; nothing is written to the console. How long
 * the page is blocked meanwhile is a figure to read: e2e/score-drawing.measure.ts.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { postScore, quartetXml } from './support/scores';

const MEASURES = 320;

test('a big score shows its first systems at once and is drawn whole a piece at a time', async ({ page, request, server, shot }, testInfo) => {
  // A phone's narrow systems make ~160 of them: its drawing takes half a minute alone, longer
  // beside another browser test.
  test.setTimeout(240_000);
  const logged: string[] = [];
  page.on('pageerror', (e) => logged.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') logged.push(m.text());
  });
  const ana = await signedUpAccount(request, server, uniqueEmail('score-pieces', testInfo.project.name), 'Ana Pieces');
  const xml = quartetXml(MEASURES, 'Quartet in Pieces');
  expect(xml.length).toBeGreaterThan(1_000_000);
  const id = await postScore(request, server.url, ana.token, { name: 'quartet.musicxml', mimeType: 'application/xml', buffer: Buffer.from(xml) }, 'Quartet in Pieces');
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${id}`);

  const figure = page.getByRole('figure', { name: 'Score: Quartet in Pieces' });
  // The first piece is there before the last: the figure says it is still being drawn.
  const drawnPieces = figure.locator('[data-score-piece]');
  await expect(drawnPieces.first().locator('svg')).toBeVisible({ timeout: 30_000 });
  const firstSeen = await figure.getAttribute('data-drawn');
  expect(firstSeen).toBe('some');
  await expect(page.getByRole('button', { name: 'Play score' })).toBeVisible();
  await shot('score-pieces-first');

  await expect(figure).toHaveAttribute('data-drawn', 'all', { timeout: 150_000 });
  await expect(figure).toHaveAttribute('aria-busy', 'false');
  const pieces = await drawnPieces.count();
  expect(pieces).toBeGreaterThan(5);
  // The pieces join as one score: each below the one before, none overlapping, none cut to nothing.
  const boxes = await drawnPieces.evaluateAll((all) =>
    all.map((piece) => {
      const box = piece.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom };
    }),
  );
  for (let i = 1; i < boxes.length; i++) {
    expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 1);
    expect(boxes[i]!.bottom - boxes[i]!.top).toBeGreaterThan(50);
  }

  // A measure of the last piece plays from there, the cursor on it.
  const last = drawnPieces.last();
  // Its first system, brought 200 px below the window's top (clear of a phone's top bar).
  await last.evaluate((piece) => window.scrollBy(0, piece.getBoundingClientRect().top - 200));
  const box = await last.boundingBox();
  if (!box) throw new Error('the last piece has no box');
  await page.mouse.click(box.x + box.width * 0.6, box.y + Math.min(box.height / 2, 80));
  await expect(page.getByRole('button', { name: 'Pause score' })).toBeVisible();
  await expect(page.locator('[data-score-cursor]')).toBeVisible();
  // The cursor goes there on the next frame after playing starts, which waits for the player to
  // read the whole score's timeline and sounds: seconds for 320 bars, many beside another test.
  await expect
    .poll(async () => Number(await page.locator('[data-score-cursor]').getAttribute('data-measure')), {
      timeout: 60_000,
    })
    .toBeGreaterThan(MEASURES - 30);
  await shot('score-pieces-last');

  // The keyboard's way: a bar typed in "Start at bar" (issue 34).
  const startAt = page.getByRole('spinbutton', { name: 'Start at bar' });
  await startAt.fill('999');
  await startAt.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(`This score has bars 1 to ${MEASURES}.`);
  await startAt.fill('200');
  await startAt.press('Enter');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // From bar 200 on (it plays on meanwhile; before, it was past bar 290).
  const cursorBar = async () => Number(await page.locator('[data-score-cursor]').getAttribute('data-measure'));
  await expect.poll(cursorBar).toBeLessThan(230);
  expect(await cursorBar()).toBeGreaterThanOrEqual(200);
  await expect(page.getByRole('button', { name: 'Pause score' })).toBeVisible();
  await shot('score-start-at-bar');
  // (Not paused: from the last measures it may have played to its end by now.)
  expect(logged).toEqual([]);
});
