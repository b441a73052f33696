/**
 * Tracks evened out (issue 32): a quiet recording is raised through a Web Audio gain and a loud
 * one lowered, by what the server measured on upload; the now-playing bar's switch turns it off
 * and on, and the choice outlasts a reload. The page's audio graph is watched through its own
 * constructors (an init script notes each gain node and audio element the app makes).
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';

interface Measured {
  integrated_lufs: number;
  true_peak_dbtp: number;
}

/** What the player's rule gives (loudness.ts): to −14 LUFS, the true peak at most −1 dBTP. */
function expectedGainDb({ integrated_lufs: lufs, true_peak_dbtp: peak }: Measured): number {
  const toTarget = -14 - lufs;
  return toTarget > 0 ? Math.min(toTarget, Math.max(0, -1 - peak), 24) : Math.max(toTarget, -24);
}

declare global {
  interface Window {
    noted: { gains: GainNode[]; audios: HTMLAudioElement[] };
  }
}

test('a quiet track is raised and a loud one lowered; the switch turns it off', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  const project = testInfo.project.name;
  test.skip(project === 'phone', 'the switch sits with the volume, which phones leave to their own keys');
  const ana = await signedUpAccount(request, server, uniqueEmail('loudness', project), 'Ana Levels');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const tag = Math.random().toString(36).slice(2, 7);
  const upload = async (title: string, amplitude: number) => {
    const res = await request.post(`${server.url}/posts/audio`, {
      headers,
      multipart: { audio_files: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: toneWav(20, 330, amplitude) } },
    });
    expect(res.status(), await res.text()).toBe(201);
    const body = (await res.json()) as { audio: { loudness: Measured | null }[] };
    const loudness = body.audio[0]?.loudness;
    expect(loudness).not.toBeNull();
    return loudness as Measured;
  };
  const loud = `Loud Master ${tag}`;
  const quiet = `Bedroom Take ${tag}`;
  const loudMeasured = await upload(loud, 0.9);
  const quietMeasured = await upload(quiet, 0.03);
  expect(quietMeasured.integrated_lufs).toBeLessThan(-30);
  expect(loudMeasured.integrated_lufs).toBeGreaterThan(-10);

  await page.addInitScript(() => {
    window.noted = { gains: [], audios: [] };
    const createGain = AudioContext.prototype.createGain;
    AudioContext.prototype.createGain = function (this: AudioContext) {
      const node = createGain.call(this);
      window.noted.gains.push(node);
      return node;
    };
    const createElement = document.createElement.bind(document);
    document.createElement = ((name: string, options?: ElementCreationOptions) => {
      const el = createElement(name, options);
      if (el instanceof HTMLAudioElement) window.noted.audios.push(el);
      return el;
    });
  });
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/profile`);
  const bar = page.getByRole('region', { name: 'Now playing' });

  // The quiet take plays raised through a gain node, and sounds (its position moves).
  await page.getByRole('button', { name: `Play ${quiet}` }).first().click();
  await expect(bar.getByRole('button', { name: `Pause ${quiet}` })).toBeVisible();
  const raised = 10 ** (expectedGainDb(quietMeasured) / 20);
  expect(raised).toBeGreaterThan(4);
  const gain = () => page.evaluate(() => window.noted.gains.at(-1)?.gain.value ?? null);
  await expect.poll(gain).toBeCloseTo(raised, 1);
  const audio = () => page.evaluate(() => {
    const el = window.noted.audios.at(-1);
    return el ? { time: el.currentTime, volume: el.volume, paused: el.paused } : null;
  });
  await expect.poll(async () => (await audio())?.time ?? 0).toBeGreaterThan(0.5);
  const evenOut = bar.getByRole('button', { name: 'Even out loudness' });
  await expect(evenOut).toHaveAttribute('aria-pressed', 'true');
  await shot('loudness-switch-on');

  // Off: the file as it is.
  await evenOut.click();
  await expect(evenOut).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(gain).toBe(1);
  await shot('loudness-switch-off');

  // Remembered across a reload; on again, the loud master plays lowered.
  await page.reload();
  await page.getByRole('button', { name: `Play ${loud}` }).first().click();
  await expect(bar.getByRole('button', { name: 'Even out loudness' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await audio())?.volume).toBe(1);
  await bar.getByRole('button', { name: 'Even out loudness' }).click();
  const lowered = 10 ** (expectedGainDb(loudMeasured) / 20);
  expect(lowered).toBeLessThan(0.6);
  await expect.poll(async () => (await audio())?.volume ?? 1).toBeCloseTo(lowered, 2);
});

test('Settings has the same switch, for phones too', async ({ page, request, server, shot }, testInfo) => {
  const ana = await signedUpAccount(request, server, uniqueEmail('playback-settings', testInfo.project.name), 'Ana Settings');
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/settings`);
  const box = page.getByRole('checkbox', { name: /Even out loudness/ });
  await expect(box).toBeChecked();
  await page.getByRole('heading', { name: 'Playback' }).scrollIntoViewIfNeeded();
  await shot('settings-playback');
  await box.uncheck();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /Even out loudness/ })).not.toBeChecked();
});
