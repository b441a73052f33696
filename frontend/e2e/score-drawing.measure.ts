/**
 * How long a big score blocks the page while it is drawn (issue 34 item 1): a figure to read,
 * not a test (`SELFSOUND_MEASURE=1 npx playwright test e2e/score-drawing.measure.ts
 * --workers=1`; docs/frontend.md, "Big scores"). The quartet of e2e/support/scores.ts at 320
 * measures (1.4 MB) is opened five times in a fresh page; each visit reports the longest task
 * (Long Tasks API) from the file's arrival until the whole score is drawn, how many tasks were
 * over 200 ms, and how long after the file arrived its first system showed; then the longest
 * task of the first press of Play (the player reads the score).
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signedUpAccount } from './support/accounts';
import { postScore, quartetXml } from './support/scores';

test('long tasks while a 320-measure quartet is drawn', async ({ browser, request, server }, testInfo) => {
  test.setTimeout(300_000);
  const ana = await signedUpAccount(request, server, uniqueEmail('score-measure', testInfo.project.name), 'Ana Measure');
  const xml = quartetXml(320, 'Measured Quartet');
  const id = await postScore(request, server.url, ana.token, { name: 'quartet.musicxml', mimeType: 'application/xml', buffer: Buffer.from(xml) }, 'Measured Quartet');
  const runs: Array<{ longest: number; over: number; first: number; total: number; play: number }> = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext({ viewport: testInfo.project.use.viewport ?? { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __tasks: Array<[number, number]>; __firstSystem: number };
      w.__tasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      new MutationObserver(() => {
        if (!w.__firstSystem && document.querySelector('[data-score-drawing] svg')) w.__firstSystem = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${server.appUrl}/post/${id}`);
    const figure = page.getByRole('figure', { name: 'Score: Measured Quartet' });
    await expect(figure).toHaveAttribute('data-drawn', 'all', { timeout: 120_000 });
    const drawn = await page.evaluate(() => performance.now());
    const playFrom = drawn + 50;
    await page.waitForTimeout(100);
    await page.getByRole('button', { name: 'Play score' }).click();
    await expect(page.getByRole('button', { name: 'Pause score' })).toBeVisible();
    await page.waitForTimeout(500);
    const run = await page.evaluate(
      ({ drawn, playFrom }) => {
        const w = window as unknown as { __tasks: Array<[number, number]>; __firstSystem: number };
        const file = performance.getEntriesByType('resource').find((r) => /\/media\/.*\.musicxml/.test(r.name)) as PerformanceResourceTiming;
        const arrived = file.responseEnd;
        const during = w.__tasks.filter(([start]) => start >= arrived && start < drawn);
        const playing = w.__tasks.filter(([start]) => start >= playFrom);
        return {
          longest: Math.round(Math.max(0, ...during.map(([, d]) => d))),
          over: during.filter(([, d]) => d > 200).length,
          first: Math.round(w.__firstSystem - arrived),
          total: Math.round(drawn - arrived),
          play: Math.round(Math.max(0, ...playing.map(([, d]) => d))),
        };
      },
      { drawn, playFrom },
    );
    runs.push(run);
    console.log(`${testInfo.project.name}: ${JSON.stringify(run)}`);
    await context.close();
  }
  const median = (k: keyof (typeof runs)[number]) => runs.map((r) => r[k]).sort((a, b) => a - b)[2];
  console.log(
    `${testInfo.project.name}: median longest task ${median('longest')} ms, first system ${median('first')} ms after the file, ` +
      `drawn whole in ${median('total')} ms, Play's longest task ${median('play')} ms; tasks over 200 ms: ${runs.map((r) => r.over).join(', ')}`,
  );
});
