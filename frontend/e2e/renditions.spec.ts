/**
 * Streams sized for the connection (issue 32): a CD-quality recording (1411 kbit/s WAV) is encoded
 * after upload into Opus (96 kbit/s) and AAC; on a slow 3G line (DevTools' profile: 400 kbit/s
 * down, 2 s round trips) the player streams the Opus copy, whose first sound comes within
 * FIRST_SOUND_MS of the click, and a seek lands at once (range requests). The original as the
 * player used to stream it is timed on the same line for comparison (logged; it cannot keep up).
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { studioWav } from './support/audio';

/** The first sound of a streamed track on slow 3G, at most (stated in docs/posts.md). */
const FIRST_SOUND_MS = 8_000;

interface Track {
  file_url: string;
  renditions: { url: string; mime_type: string }[];
}

declare global {
  interface Window {
    audios: HTMLAudioElement[];
  }
}

async function slow3g(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 2000,
    downloadThroughput: 50_000,
    uploadThroughput: 50_000,
  });
}

test('on slow 3G a track streams as Opus, sounds within seconds and seeks at once', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(180_000);
  test.skip(testInfo.project.name === 'phone', 'one line, one browser: the desktop project measures it');
  const ana = await signedUpAccount(request, server, uniqueEmail('renditions', testInfo.project.name), 'Ana Streams');
  const title = `Studio Take ${Math.random().toString(36).slice(2, 7)}`;
  const res = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: {
      audio_files: { name: 'take.wav', mimeType: 'audio/wav', buffer: studioWav(90) },
      titles: title,
    },
    timeout: 120_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  const post = (await res.json()) as { id: string };
  // The job encodes it in the background.
  let track: Track | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`${server.url}/posts/${post.id}`)).json()) as { audio: Track[] };
        track = body.audio[0];
        return track?.renditions.length ?? 0;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(2);
  const { file_url: original, renditions } = track as Track;
  expect(renditions[0]?.mime_type).toBe('audio/webm; codecs="opus"');

  await page.addInitScript(() => {
    window.audios = [];
    const createElement = document.createElement.bind(document);
    document.createElement = ((name: string, options?: ElementCreationOptions) => {
      const el = createElement(name, options);
      if (el instanceof HTMLAudioElement) window.audios.push(el);
      return el;
    });
  });
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${post.id}`);
  await expect(page.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  await slow3g(page);

  // Before: the original, as the player streamed it until now.
  const originalMs = await page.evaluate(async (url) => {
    const el = new Audio(url);
    const started = performance.now();
    await el.play();
    await new Promise<void>((done) => {
      const check = () => (el.currentTime > 0.1 ? done() : setTimeout(check, 50));
      check();
    });
    el.pause();
    el.removeAttribute('src');
    el.load();
    return performance.now() - started;
  }, original);

  // After: the player streams the Opus copy.
  const clicked = Date.now();
  await page.getByRole('button', { name: `Play ${title}` }).click();
  const player = () =>
    page.evaluate(() => {
      const el = window.audios.find((a) => a.src.endsWith('.weba'));
      return el ? { src: el.src, time: el.currentTime } : null;
    });
  await expect.poll(async () => (await player())?.time ?? 0, { timeout: FIRST_SOUND_MS, intervals: [50] }).toBeGreaterThan(0.1);
  const streamedMs = Date.now() - clicked;
  expect((await player())?.src).toBe(renditions[0]?.url);
  await shot('renditions-slow-3g-playing');

  // A seek far ahead starts there without fetching what lies between.
  const seeked = Date.now();
  await page.getByRole('slider', { name: `Seek ${title}` }).first().fill('70');
  await expect.poll(async () => (await player())?.time ?? 0, { timeout: FIRST_SOUND_MS, intervals: [50] }).toBeGreaterThan(70.1);
  const seekMs = Date.now() - seeked;
  console.log(
    `slow 3G first sound: original WAV ${Math.round(originalMs)} ms, Opus rendition ${streamedMs} ms; seek to 70 s ${seekMs} ms`,
  );
});
