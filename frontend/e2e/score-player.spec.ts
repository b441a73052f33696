/**
 * Hearing a score (issue 20), in real Chromium with the real synthesiser: a score made here (two
 * parts, a repeat, a tempo change) plays with sound (read from the Web Audio analyser every sound
 * passes through), the cursor walks the measures in the order they are played, a muted part
 * falls silent while the other goes on, and scores of every common shape (an .mxl archive, a
 * timewise score with a transposing instrument, a piano grand staff with a pickup, two voices,
 * chords, ties and tuplets) are drawn and played without an error.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { watchCsp } from './support/csp';
import { zip } from '../src/test/zip';
import { lastMeasureCentre, postScore } from './support/scores';

const note = (step: string, octave: number, duration: number, extra = '', alter = 0) =>
  `<note><pitch><step>${step}</step>${alter ? `<alter>${alter}</alter>` : ''}<octave>${octave}</octave></pitch><duration>${duration}</duration>${extra}</note>`;
const attrs = (extra = '') =>
  `<attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time>${extra}</attributes>`;

/**
 * Two parts, each holding one pitch all through (piano C2 at 65 Hz, violin A6 at 1760 Hz, far above every
 * partial of the piano's, so each can be heard apart): measures 1-2 repeated at ♩ = 240, measure 3 at ♩ = 120. Played:
 * 1 2 1 2 3, in 6 seconds.
 */
const PRACTICE = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list>
    <score-part id="P1"><part-name>Piano</part-name><midi-instrument id="P1-I1"><midi-channel>1</midi-channel><midi-program>1</midi-program></midi-instrument></score-part>
    <score-part id="P2"><part-name>Violin</part-name><midi-instrument id="P2-I1"><midi-channel>2</midi-channel><midi-program>41</midi-program></midi-instrument></score-part>
  </part-list>
  <part id="P1">
    <measure number="1">${attrs('<clef><sign>F</sign><line>4</line></clef>')}<direction placement="above"><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>240</per-minute></metronome></direction-type><sound tempo="240"/></direction>${note('C', 2, 4, '<type>whole</type>')}</measure>
    <measure number="2">${note('C', 2, 4, '<type>whole</type>')}<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"/></barline></measure>
    <measure number="3"><direction placement="above"><direction-type><words>Slower</words></direction-type><sound tempo="120"/></direction>${note('C', 2, 4, '<type>whole</type>')}</measure>
  </part>
  <part id="P2">
    <measure number="1">${attrs('<clef><sign>G</sign><line>2</line></clef>')}${note('A', 6, 4, '<type>whole</type>')}</measure>
    <measure number="2">${note('A', 6, 4, '<type>whole</type>')}<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"/></barline></measure>
    <measure number="3">${note('A', 6, 4, '<type>whole</type>')}</measure>
  </part>
</score-partwise>
`;

/** A piano grand staff: a pickup, two voices on the upper staff, chords, a tie across the bar, triplets. */
const GRAND_STAFF = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="3.1">
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">
    <measure number="0" implicit="yes">
      <attributes><divisions>6</divisions><key><fifths>-1</fifths></key><time><beats>3</beats><beat-type>4</beat-type></time><staves>2</staves>
        <clef number="1"><sign>G</sign><line>2</line></clef><clef number="2"><sign>F</sign><line>4</line></clef></attributes>
      <sound tempo="100"/>
      ${note('C', 5, 6, '<voice>1</voice><type>quarter</type><staff>1</staff>')}
      <backup><duration>6</duration></backup>
      <note><rest/><duration>6</duration><voice>5</voice><type>quarter</type><staff>2</staff></note>
    </measure>
    <measure number="1">
      ${note('F', 5, 12, '<voice>1</voice><type>half</type><staff>1</staff>')}
      ${note('E', 5, 6, '<voice>1</voice><type>quarter</type><staff>1</staff><tie type="start"/><notations><tied type="start"/></notations>')}
      <backup><duration>18</duration></backup>
      ${note('A', 4, 6, '<voice>2</voice><type>quarter</type><stem>down</stem><staff>1</staff>')}
      ${note('B', 4, 6, '<voice>2</voice><type>quarter</type><stem>down</stem><staff>1</staff>', -1)}
      ${note('G', 4, 6, '<voice>2</voice><type>quarter</type><stem>down</stem><staff>1</staff>')}
      <backup><duration>18</duration></backup>
      ${note('F', 3, 18, '<voice>5</voice><type>half</type><dot/><staff>2</staff>')}
      ${note('A', 3, 18, '<chord/><voice>5</voice><type>half</type><dot/><staff>2</staff>')}
      ${note('C', 4, 18, '<chord/><voice>5</voice><type>half</type><dot/><staff>2</staff>')}
    </measure>
    <measure number="2">
      ${note('E', 5, 6, '<voice>1</voice><type>quarter</type><staff>1</staff><tie type="stop"/><notations><tied type="stop"/></notations>')}
      ${['D', 'C', 'D'].map((s) => note(s, 5, 2, '<voice>1</voice><type>eighth</type><time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification><staff>1</staff>')).join('')}
      ${note('C', 5, 6, '<voice>1</voice><type>quarter</type><staff>1</staff>')}
      <backup><duration>18</duration></backup>
      ${note('C', 3, 18, '<voice>5</voice><type>half</type><dot/><staff>2</staff>')}
      ${note('G', 3, 18, '<chord/><voice>5</voice><type>half</type><dot/><staff>2</staff>')}
      <barline location="right"><bar-style>light-heavy</bar-style></barline>
    </measure>
  </part>
</score-partwise>
`;

/** Timewise, with a clarinet in B♭ (written a tone above how it sounds) over a bassoon. */
const TIMEWISE = `<?xml version="1.0" encoding="UTF-8"?>
<score-timewise version="4.0">
  <part-list>
    <score-part id="P1"><part-name>Clarinet in B♭</part-name></score-part>
    <score-part id="P2"><part-name>Bassoon</part-name></score-part>
  </part-list>
  <measure number="1">
    <part id="P1">${attrs('<clef><sign>G</sign><line>2</line></clef><transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose>')}<direction><direction-type><dynamics><mf/></dynamics></direction-type></direction>${note('D', 5, 2, '<type>half</type>')}${note('E', 5, 2, '<type>half</type>')}</part>
    <part id="P2">${attrs('<clef><sign>F</sign><line>4</line></clef>')}${note('C', 2, 4, '<type>whole</type>')}</part>
  </measure>
  <measure number="2">
    <part id="P1">${note('D', 5, 4, '<type>whole</type>')}</part>
    <part id="P2">${note('G', 2, 4, '<type>whole</type>')}</part>
  </measure>
</score-timewise>
`;

const CONTAINER =
  '<?xml version="1.0" encoding="UTF-8"?><container><rootfiles><rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>';

/** Signs up someone who posts `xml` as a score titled `title`, and opens its page, drawn. */
async function openScore(
  { page, request, server }: { page: Page; request: APIRequestContext; server: { url: string; appUrl: string; dataDir: string } },
  who: string,
  file: string,
  xml: string,
  title: string,
) {
  const person = await signedUpAccount(request, server, uniqueEmail(who, test.info().project.name), 'Ana Player');
  const id = await postScore(request, server.url, person.token, { name: file, mimeType: 'application/xml', buffer: Buffer.from(xml) }, title);
  await signInThroughAddress(page, server.appUrl, person.token);
  await page.goto(`${server.appUrl}/post/${id}`);
  await expect(page.getByRole('figure', { name: `Score: ${title}` })).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
}

/**
 * Every note the synthesiser starts: when (the audio clock) and its frequency, in
 * `window.__starts` (its voices are custom waves), and every click of the metronome or a
 * count-in (square waves) in `window.__clicks`.
 */
async function recordOscillators(page: Page) {
  await page.addInitScript(() => {
    const starts: Array<[number, number]> = [];
    const clicks: number[] = [];
    Object.assign(window, { __starts: starts, __clicks: clicks });
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      if (this.frequency.value > 20 && this.type === 'custom') starts.push([when ?? this.context.currentTime, this.frequency.value]);
      if (this.type === 'square') clicks.push(when ?? this.context.currentTime);
      start.call(this, when);
    };
  });
}

/** Every analyser made on the page, so the test can read what the page sounds like. */
async function listen(page: Page) {
  await page.addInitScript(() => {
    const made: AnalyserNode[] = [];
    (window as unknown as { __analysers: AnalyserNode[] }).__analysers = made;
    const create = BaseAudioContext.prototype.createAnalyser;
    BaseAudioContext.prototype.createAnalyser = function (this: BaseAudioContext) {
      const analyser = create.call(this);
      made.push(analyser);
      return analyser;
    };
  });
}

/**
 * The sound scores play with on this device (the player's Sound choice): these journeys read
 * the synthesiser's oscillators and its pure partials; the sampled instruments have their own.
 */
async function chooseSound(page: Page, sound: 'synth' | 'samples') {
  await page.addInitScript((s) => localStorage.setItem('selfsound.score-sound', s), sound);
}

/** The spectrum (dB per bin) the page's analyser hears now, averaged over `frames` readings 50 ms apart. */
async function spectrum(page: Page, frames = 8): Promise<{ db: number[]; binHz: number }> {
  return page.evaluate(async (count) => {
    const analyser = (window as unknown as { __analysers: AnalyserNode[] }).__analysers.at(-1);
    if (!analyser) return { db: [], binHz: 1 };
    analyser.smoothingTimeConstant = 0;
    const sum = new Float64Array(analyser.frequencyBinCount);
    const one = new Float32Array(analyser.frequencyBinCount);
    for (let f = 0; f < count; f++) {
      analyser.getFloatFrequencyData(one);
      one.forEach((v, i) => (sum[i] = (sum[i] ?? 0) + Math.max(-140, v) / count));
      await new Promise((r) => setTimeout(r, 50));
    }
    return { db: [...sum], binHz: analyser.context.sampleRate / analyser.fftSize };
  }, frames);
}

/** The loudest level (dB) around `hz`, and the overall RMS, as the page's analyser hears now. */
async function hear(page: Page, hz: number): Promise<{ db: number; rms: number }> {
  return page.evaluate((freq) => {
    const analyser = (window as unknown as { __analysers: AnalyserNode[] }).__analysers.at(-1);
    if (!analyser) return { db: -Infinity, rms: 0 };
    // Each reading blends with the one before it unless smoothing is off: this moment's alone.
    analyser.smoothingTimeConstant = 0;
    const spectrum = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(spectrum);
    const bin = Math.round(freq / (analyser.context.sampleRate / analyser.fftSize));
    let db = -Infinity;
    for (let i = Math.max(0, bin - 2); i <= bin + 2; i++) db = Math.max(db, spectrum[i] ?? -Infinity);
    const wave = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(wave);
    const rms = Math.sqrt(wave.reduce((sum, v) => sum + v * v, 0) / wave.length);
    return { db, rms };
  }, hz);
}

/** The measures the cursor shows while the score plays to its end, each once per visit: watched
 * from before `play` starts it (a busy machine once let the first measure, a second long, pass
 * before a watch started after the click could see it). */
async function cursorWalk(page: Page, play: () => Promise<void>): Promise<string[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __walk: Promise<string[]> };
    w.__walk = new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      let played = false;
      const started = performance.now();
      const timer = window.setInterval(() => {
        const cursor = document.querySelector<HTMLElement>('[data-score-cursor]');
        const measure = cursor && !cursor.hidden ? cursor.dataset.measure : undefined;
        const playing = document.querySelector('button[aria-label="Pause score"]') !== null;
        played ||= playing;
        // At the end the cursor goes back to the start, ready to play again: not a measure played.
        if (playing && measure && seen.at(-1) !== measure) seen.push(measure);
        if ((played && !playing) || performance.now() - started > 30_000) {
          window.clearInterval(timer);
          resolve(seen);
        }
      }, 30);
    });
  });
  await play();
  return page.evaluate(() => (window as unknown as { __walk: Promise<string[]> }).__walk);
}


test('a score plays with sound, its cursor follows the repeats, and a muted part falls silent', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await listen(page);
  await chooseSound(page, 'synth');
  // Set to the synthesiser, the device never fetches the instruments, not even for a first Play.
  const banks: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.sf3')) banks.push(r.url());
  });
  const ana = await signedUpAccount(request, server, uniqueEmail('score-player', testInfo.project.name), 'Ana Score');
  const id = await postScore(
    request,
    server.url,
    ana.token,
    { name: 'practice.musicxml', mimeType: 'application/xml', buffer: Buffer.from(PRACTICE) },
    'Practice Piece',
  );
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${id}`);
  const figure = page.getByRole('figure', { name: 'Score: Practice Piece' });
  await expect(figure).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Play score' })).toBeVisible();
  // Its length shows before the first Play (issue 34).
  await expect(page.getByLabel('Position')).toHaveText(/^0:00 \/ \d+:\d\d$/);
  await shot('score-before-play');

  // Play: sound, the now-playing bar names the score and its composer, the cursor walks 1 2 1 2 3.
  const walk = cursorWalk(page, () => page.getByRole('button', { name: 'Play score' }).click());
  await expect.poll(async () => (await hear(page, 65)).rms, { timeout: 5_000 }).toBeGreaterThan(0.01);
  const bar = page.getByRole('region', { name: 'Now playing' });
  await expect(bar).toContainText('Practice Piece');
  await expect(bar).toContainText('E2E Composer');
  // The lock screen shows the app's icon for a score (issue 34), which the server serves.
  const artwork = await page.evaluate(() => navigator.mediaSession.metadata?.artwork[0]?.src ?? '');
  expect(artwork).toBe(`${server.appUrl}/artwork.png`);
  const icon = await request.get(artwork);
  expect([icon.status(), icon.headers()['content-type']]).toEqual([200, 'image/png']);
  await expect(page.locator('[data-score-cursor]')).toBeVisible();
  await shot('score-playing');
  expect(await walk).toEqual(['1', '2', '1', '2', '3']);
  await expect(page.getByRole('button', { name: 'Play score' })).toBeVisible();

  // Muting the violin silences its A6 while the piano's C2 goes on. At half the tempo the piece
  // lasts long enough (about 12 s) for every step below on a busy machine.
  await page.getByRole('slider', { name: 'Tempo' }).fill('50');
  await page.getByText('Parts (2)').click();
  await page.getByRole('button', { name: 'Play score' }).click();
  let before = -Infinity;
  await expect.poll(async () => (before = (await hear(page, 1760)).db), { timeout: 5_000 }).toBeGreaterThan(-50);
  await page.getByRole('button', { name: 'Mute Violin' }).click();
  await expect.poll(async () => (await hear(page, 1760)).db, { timeout: 3_000 }).toBeLessThan(before - 25);
  expect((await hear(page, 65)).rms).toBeGreaterThan(0.005);
  await shot('score-muted');
  // Solo the violin: the piano goes quiet instead.
  await page.getByRole('button', { name: 'Mute Violin' }).click();
  await page.getByRole('button', { name: 'Solo Violin' }).click();
  await expect.poll(async () => (await hear(page, 1760)).db, { timeout: 3_000 }).toBeGreaterThan(before - 10);
  await expect.poll(async () => (await hear(page, 65)).db, { timeout: 3_000 }).toBeLessThan(-60);
  // Pausing in the now-playing bar pauses the score.
  await bar.getByRole('button', { name: /Pause/ }).click();
  await expect(page.getByRole('button', { name: 'Play score' })).toBeVisible();
  // Paused, the score's audio clock stops (and with it every sound).
  const clock = () =>
    page.evaluate(() => (window as unknown as { __analysers: AnalyserNode[] }).__analysers.at(-1)?.context.state);
  await expect.poll(clock, { timeout: 3_000 }).toBe('suspended');

  // A click on a measure plays from there; the tempo slider, count-in and metronome answer.
  await page.getByRole('slider', { name: 'Tempo' }).fill('50');
  await expect(page.getByRole('slider', { name: 'Tempo' })).toHaveAttribute('aria-valuetext', '50%');
  await page.getByRole('checkbox', { name: 'Metronome' }).check();
  // On a phone the controls push the score down: the last measure drawn (the third), in view.
  const third = await lastMeasureCentre(page);
  expect(third).not.toBeNull();
  if (third) await page.mouse.click(third.x, third.y);
  await expect(page.getByRole('button', { name: 'Pause score' })).toBeVisible();
  await expect(page.locator('[data-score-cursor]')).not.toHaveAttribute('data-measure', '1');
  await page.getByRole('button', { name: 'Pause score' }).click();
  expect(banks).toEqual([]);
  expect(errors).toEqual([]);
  expect(csp).toEqual([]);
});

test('scores of every common shape are drawn and played without an error', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await listen(page);
  const ana = await signedUpAccount(request, server, uniqueEmail('score-shapes', testInfo.project.name), 'Ana Shapes');
  const scores = [
    { name: 'grand.mxl', mimeType: 'application/vnd.recordare.musicxml', buffer: Buffer.from(zip([['META-INF/container.xml', CONTAINER, true], ['score.xml', GRAND_STAFF, true]])), title: 'Grand Staff Piece' },
    { name: 'timewise.musicxml', mimeType: 'application/xml', buffer: Buffer.from(TIMEWISE), title: 'Timewise Duet' },
  ];
  await signInThroughAddress(page, server.appUrl, ana.token);
  for (const score of scores) {
    const id = await postScore(request, server.url, ana.token, score, score.title);
    await page.goto(`${server.appUrl}/post/${id}`);
    const figure = page.getByRole('figure', { name: `Score: ${score.title}` });
    await expect(figure).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Play score' }).click();
    await expect.poll(async () => (await hear(page, 440)).rms, { timeout: 5_000 }).toBeGreaterThan(0.005);
    await expect(page.locator('[data-score-cursor]')).toBeVisible();
    await shot(`score-shape-${score.name.split('.')[0]}`);
    // The next score's Play stops this one (a short one may have ended already).
  }
  expect(errors).toEqual([]);
});

/** Four bars of 4/4 at ♩ = 240: each bar lasts one second at 100 %. */
const LOOP_STUDY = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">${[60, 62, 64, 65]
    .map(
      (_, i) =>
        `<measure number="${i + 1}">${i === 0 ? '<attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes><sound tempo="240"/>' : ''}` +
        `<note><pitch><step>${'CDEF'[i]}</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note></measure>`,
    )
    .join('')}</part>
</score-partwise>`;

test('bars A to B loop for practice, wrapping at B on the audio clock, until the loop is stopped', async ({
  page,
  request,
  server,
  shot,
}) => {
  test.setTimeout(90_000);
  await listen(page);
  await chooseSound(page, 'synth');
  await recordOscillators(page);
  await openScore({ page, request, server }, 'score-loop', 'loop.musicxml', LOOP_STUDY, 'Loop Study');
  const loop = page.getByRole('form', { name: 'Loop bars' });
  await loop.getByLabel('Loop bars: first').fill('2');
  await loop.getByLabel('Loop bars: last').fill('3');
  // Where the cursor is, by the audio graph's clock, every 5 ms for six seconds.
  const walk = page.evaluate(
    () =>
      new Promise<Array<[number, string]>>((resolve) => {
        const seen: Array<[number, string]> = [];
        const started = performance.now();
        const timer = window.setInterval(() => {
          const analyser = (window as unknown as { __analysers: AnalyserNode[] }).__analysers.at(-1);
          const cursor = document.querySelector<HTMLElement>('[data-score-cursor]');
          const measure = cursor && !cursor.hidden ? cursor.dataset.measure : undefined;
          if (analyser && measure && seen.at(-1)?.[1] !== measure) seen.push([analyser.context.currentTime, measure]);
          if (performance.now() - started > 6_000) {
            window.clearInterval(timer);
            resolve(seen);
          }
        }, 5);
      }),
  );
  await loop.getByRole('button', { name: 'Loop these bars' }).click();
  await expect(page.getByRole('button', { name: 'Pause score' })).toBeVisible();
  await shot('score-loop');
  const seen = await walk;
  const bars = seen.map(([, bar]) => bar);
  expect(bars.slice(0, 5)).toEqual(['2', '3', '2', '3', '2']);
  expect(bars).not.toContain('4');
  // On the audio clock: bar 2's D and bar 3's E, a second apart, then D again as bar 3 ends
  // (each pass two bars, two seconds), never bar 4's F: the wrap at B within 50 ms.
  const starts = await page.evaluate(() => (window as unknown as { __starts: Array<[number, number]> }).__starts);
  const notes = starts.map(([when, hz]) => [when, Math.round(12 * Math.log2(hz / 440) + 69)] as const);
  const unique = notes.filter(([when, midi], i) => notes.findIndex(([w, m]) => m === midi && Math.abs(w - when) < 0.01) === i);
  expect(unique.map(([, midi]) => midi).slice(0, 5)).toEqual([62, 64, 62, 64, 62]);
  expect(unique.some(([, midi]) => midi === 65)).toBe(false);
  const first = unique[0]![0];
  unique.slice(0, 5).forEach(([when], i) => expect(Math.abs(when - first - i)).toBeLessThan(0.05));

  // A bar outside the loop, asked for while it loops, starts the loop again.
  await page.getByLabel('Start at bar').fill('4');
  await page.getByRole('button', { name: 'Play from bar' }).click();
  await page.waitForTimeout(300);
  await expect(page.locator('[data-score-cursor]')).toHaveAttribute('data-measure', /^[23]$/);

  // Stopped, it plays on past the loop, to the end.
  const after = await cursorWalk(page, () => loop.getByRole('button', { name: 'Stop looping' }).click());
  expect(after.at(-1)).toBe('4');

  // Dragged across the score from bar 1 to bar 2 with the mouse: those bars loop, a count-in
  // before each pass (a bar of four clicks, one second at ♩ = 240), and the form shows them.
  await page.getByRole('checkbox', { name: 'Count-in' }).check();
  await page.evaluate(() => {
    const w = window as unknown as { __starts: unknown[]; __clicks: unknown[] };
    w.__starts.length = 0;
    w.__clicks.length = 0;
  });
  // In the middle of the window, clear of the now-playing bar.
  await page.locator('[data-score-drawing] svg').first().evaluate((svg) => svg.scrollIntoView({ block: 'center' }));
  const centres = await page.evaluate(() =>
    [...document.querySelectorAll('[data-score-drawing] svg .vf-measure')]
      .map((m) => m.getBoundingClientRect())
      .sort((a, b) => a.top - b.top || a.left - b.left)
      .map((b) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 })),
  );
  const [one, two] = [centres[0], centres[1]];
  expect(one && two).toBeTruthy();
  await page.mouse.move(one!.x, one!.y);
  await page.mouse.down();
  await page.mouse.move(two!.x, two!.y, { steps: 5 });
  await page.mouse.up();
  await expect(loop.getByRole('button', { name: 'Stop looping' })).toBeVisible();
  await expect(loop.getByLabel('Loop bars: first')).toHaveValue('1');
  await expect(loop.getByLabel('Loop bars: last')).toHaveValue('2');
  // The two bars are shaded on the score.
  await expect(page.locator('[data-score-loop]')).toHaveCount(2);
  const passes = () =>
    page.evaluate(() => {
      const w = window as unknown as { __starts: Array<[number, number]>; __clicks: number[] };
      const cs = w.__starts.filter(([, hz]) => Math.abs(hz - 261.6) < 1).map(([when]) => when);
      return { cs: cs.filter((when, i) => i === 0 || when - (cs[i - 1] ?? 0) > 0.01), clicks: w.__clicks, notes: w.__starts.map(([, hz]) => Math.round(12 * Math.log2(hz / 440) + 69)) };
    });
  await expect.poll(async () => (await passes()).cs.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  const { cs, clicks, notes: played } = await passes();
  expect(played).not.toContain(64);
  for (let i = 0; i < 3; i++) {
    const c = cs[i]!;
    // Each pass: its count-in's four clicks in the second before its first note.
    expect(clicks.filter((when) => when > c - 1.05 && when < c - 0.05)).toHaveLength(4);
    // Two bars and a bar of count-in, three seconds, pass to pass (within 50 ms).
    if (i > 0) expect(Math.abs(c - cs[i - 1]! - 3)).toBeLessThan(0.05);
  }
  await shot('score-loop-dragged');
  await loop.getByRole('button', { name: 'Stop looping' }).click();
  await expect(page.locator('[data-score-loop]')).toHaveCount(0);

  // On a touch screen a drag scrolls: "Tap the bars", then bar B and bar A, loops them too.
  await page.getByRole('button', { name: 'Pause score' }).click();
  await page.getByRole('button', { name: 'Tap the bars' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tap the first bar to loop on the score.' })).toBeVisible();
  await page.locator('[data-score-drawing] svg').first().evaluate((svg) => svg.scrollIntoView({ block: 'center' }));
  const tapped = await page.evaluate(() =>
    [...document.querySelectorAll('[data-score-drawing] svg .vf-measure')]
      .map((m) => m.getBoundingClientRect())
      .sort((a, b) => a.top - b.top || a.left - b.left)
      .map((b) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 })),
  );
  const tap = (at: { x: number; y: number }) => (test.info().project.name === 'phone' ? page.touchscreen.tap(at.x, at.y) : page.mouse.click(at.x, at.y));
  await tap(tapped[1]!);
  await expect(page.getByRole('status').filter({ hasText: 'Bar 2: now tap the last bar to loop.' })).toBeVisible();
  await expect(page.locator('[data-score-pick]')).toHaveCount(1);
  await tap(tapped[0]!);
  await expect(loop.getByRole('button', { name: 'Stop looping' })).toBeVisible();
  await expect(loop.getByLabel('Loop bars: first')).toHaveValue('1');
  await expect(loop.getByLabel('Loop bars: last')).toHaveValue('2');
  await expect(page.locator('[data-score-loop]')).toHaveCount(2);
  await expect(page.locator('[data-score-pick]')).toHaveCount(0);
  await loop.getByRole('button', { name: 'Stop looping' }).click();
});

/**
 * A piano striking middle C on every beat for 32 seconds (♩ = 120): a struck piano's note
 * fades within a second, so each beat sounds anew while the test listens.
 */
const HELD_C = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Piano</part-name><midi-instrument id="P1-I1"><midi-channel>1</midi-channel><midi-program>1</midi-program></midi-instrument></score-part></part-list>
  <part id="P1">${Array.from(
    { length: 16 },
    (_, i) =>
      `<measure number="${i + 1}">${i === 0 ? `${attrs('<clef><sign>G</sign><line>2</line></clef>')}<sound tempo="120"/>` : ''}${note('C', 4, 1, '<type>quarter</type>').repeat(4)}</measure>`,
  ).join('')}</part>
</score-partwise>`;

test('scores play on sampled instruments, loaded when first played, and sound unlike the synthesiser', async ({
  page,
  request,
  server,
  shot,
}) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  const banks: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.sf3')) banks.push(new URL(r.url()).pathname.split('/').at(-1) ?? '');
  });
  await listen(page);
  await openScore({ page, request, server }, 'score-samples', 'held.musicxml', HELD_C, 'Held C');
  // Nothing of the instruments is fetched until the score is played.
  expect(banks).toEqual([]);
  await expect(page.getByRole('combobox', { name: 'Sound' })).toHaveValue('samples');

  const pressed = Date.now();
  await page.getByRole('button', { name: 'Play score' }).click();
  const state = page.locator('[data-samples]');
  await expect(state).toHaveAttribute('data-samples', 'ready', { timeout: 30_000 });
  console.log(`instruments ready ${Date.now() - pressed} ms after Play (${banks.join(', ')})`);
  // Only the pianos' family was fetched, and it is a long-cached asset.
  expect(banks).toHaveLength(1);
  expect(banks[0]).toMatch(/^gm-0-[0-9a-f]{10}\.sf3$/);
  const bank = await request.get(`${server.appUrl}/assets/sounds/${banks[0]}`);
  expect(bank.headers()['cache-control']).toContain('immutable');

  // Sampled: not silent, a piano's C4 (262 Hz) the loudest.
  await page.waitForTimeout(400);
  await expect.poll(async () => (await hear(page, 262)).rms, { timeout: 5_000 }).toBeGreaterThan(0.005);
  const { db: sampled, binHz } = await spectrum(page);
  await shot('score-samples');

  // The synthesiser, chosen while it plays, takes over at once: a sound of its own.
  await page.getByRole('combobox', { name: 'Sound' }).selectOption('synth');
  await page.waitForTimeout(400);
  await expect.poll(async () => (await hear(page, 262)).rms, { timeout: 5_000 }).toBeGreaterThan(0.005);
  const { db: synthesised } = await spectrum(page);
  const hz = (i: number) => i * binHz;
  const band = sampled.map((_, i) => i).filter((i) => hz(i) > 100 && hz(i) < 5_000);
  const peak = (s: number[]) => Math.max(...band.map((i) => s[i] ?? -140));
  // Each spectrum against its own loudest bin, so loudness alone does not count as a difference.
  const difference = band.reduce((sum, i) => sum + Math.abs((sampled[i] ?? 0) - peak(sampled) - ((synthesised[i] ?? 0) - peak(synthesised))), 0) / band.length;
  console.log(`spectra differ by ${difference.toFixed(1)} dB on average (100 Hz-5 kHz)`);
  expect(difference).toBeGreaterThan(6);
  // Both have C4's fundamental near their top.
  for (const s of [sampled, synthesised]) {
    const at = band.reduce((best, i) => ((s[i] ?? -140) > (s[best] ?? -140) ? i : best), band[0] ?? 0);
    expect([262, 523, 785, 1046].some((f) => Math.abs(hz(at) - f) < 30)).toBe(true);
  }

  // Back to the instruments, which are already loaded: nothing is fetched again.
  await page.getByRole('combobox', { name: 'Sound' }).selectOption('samples');
  await expect(state).toHaveAttribute('data-samples', 'ready');
  expect(banks).toHaveLength(1);
  await page.getByRole('button', { name: 'Pause score' }).click();
  expect(errors).toEqual([]);
  expect(csp).toEqual([]);
});

/** C major, two bars of ♩ = 240 for a piano: middle C, then D. */
const IN_C = `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="4.0">
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">${attrs('<clef><sign>G</sign><line>2</line></clef>')}<sound tempo="240"/>${note('C', 4, 4, '<type>whole</type>')}</measure>
    <measure number="2">${note('D', 4, 4, '<type>whole</type>')}</measure>
  </part>
</score-partwise>`;

test('a score transposed by semitones or for an instrument shows its new key and plays where it should', async ({
  page,
  request,
  server,
  shot,
}) => {
  test.setTimeout(90_000);
  await listen(page);
  await chooseSound(page, 'synth');
  await recordOscillators(page);
  await openScore({ page, request, server }, 'score-key', 'in-c.musicxml', IN_C, 'In C');
  const figure = page.getByRole('figure', { name: 'Score: In C' });
  const keySignature = () =>
    page.evaluate(() => {
      const group = document.querySelector('[data-score-drawing] svg .vf-keysignature');
      return group ? [...group.querySelectorAll('path')].map((p) => p.getAttribute('d') ?? '') : [];
    });
  /** The first pitch the synthesiser plays from bar 1, then paused. */
  const firstPitch = async () => {
    await page.evaluate(() => ((window as unknown as { __starts: unknown[] }).__starts.length = 0));
    await page.getByLabel('Start at bar').fill('1');
    await page.getByRole('button', { name: 'Play from bar' }).click();
    const first = () => page.evaluate(() => (window as unknown as { __starts: Array<[number, number]> }).__starts[0]?.[1] ?? 0);
    await expect.poll(first).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Pause score' }).click();
    return Math.round(12 * Math.log2((await first()) / 440) + 69);
  };
  expect(await keySignature()).toEqual([]);
  expect(await firstPitch()).toBe(60);

  // For a B♭ clarinet: shown a tone up, in D major (two sharps), heard as written.
  const transpose = page.getByRole('combobox', { name: 'Transpose' });
  await transpose.selectOption({ label: 'B♭ clarinet, trumpet, tenor sax' });
  await expect.poll(async () => (await keySignature()).length, { timeout: 20_000 }).toBe(2);
  await expect(figure).toHaveAttribute('data-drawn', 'all');
  const sharp = (await keySignature())[0];
  await shot('score-transposed-b-flat');
  expect(await firstPitch()).toBe(60);

  // Up three semitones: E♭ major (three flats), heard a minor third up.
  await transpose.selectOption({ label: 'Up 3 semitones' });
  await expect.poll(async () => (await keySignature()).length, { timeout: 20_000 }).toBe(3);
  expect((await keySignature())[0]).not.toBe(sharp);
  expect(await firstPitch()).toBe(63);

  // Kept on this device for the score: a new visit shows it in E♭ again.
  await page.reload();
  await expect(figure).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(transpose).toHaveValue('+3');
  await expect.poll(async () => (await keySignature()).length, { timeout: 20_000 }).toBe(3);
});
