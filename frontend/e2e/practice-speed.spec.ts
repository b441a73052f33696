/**
 * Practising along a recording (issue 35): on a track's page the Speed slider slows it down to
 * 40 % (or up to 150 %) with its pitch kept. A test tone of 440 Hz, slowed to half, still
 * measures 440 Hz (within 2 %, read from the element's own output), and half as much of it plays
 * in the same time; another track starts at its own speed.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { pitch, toneWav, watchMedia } from './support/audio';

test('a track slowed down for practice keeps its pitch', async ({ page, request, server, shot }, testInfo) => {
  test.setTimeout(90_000);
  await watchMedia(page);
  const ana = await signedUpAccount(request, server, uniqueEmail('speed', testInfo.project.name), 'Ana Speed');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const track = `Practice Tone ${testInfo.project.name}`;
  const posted = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: `${track}.wav`, mimeType: 'audio/wav', buffer: toneWav(40, 440) } },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const id = String(((await posted.json()) as { id: string }).id);
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${id}`);

  // Chosen before playing: the track starts at half speed.
  const speed = page.getByRole('slider', { name: 'Speed' });
  await speed.fill('50');
  await expect(speed).toHaveAttribute('aria-valuetext', '50%');
  await page.getByRole('button', { name: `Play ${track}` }).first().click();
  const bar = page.getByRole('region', { name: 'Now playing' });
  await expect(bar.getByRole('button', { name: `Pause ${track}` })).toBeVisible();
  const element = () =>
    page.evaluate(() => {
      const el = (window as unknown as { __media: HTMLMediaElement[] }).__media.at(-1);
      return el ? { rate: el.playbackRate, keeps: el.preservesPitch, at: el.currentTime, now: performance.now() } : null;
    });
  await expect.poll(async () => (await element())?.rate).toBe(0.5);
  expect((await element())?.keeps).toBe(true);
  const slowed = await pitch(page);
  console.log(`at 50 %: ${slowed.toFixed(1)} Hz`);
  expect(Math.abs(slowed - 440) / 440).toBeLessThan(0.02);
  // Half as much of the recording plays in the same time.
  const from = await element();
  await page.waitForTimeout(2_000);
  const to = await element();
  const ratio = ((to?.at ?? 0) - (from?.at ?? 0)) / (((to?.now ?? 0) - (from?.now ?? 0)) / 1000);
  expect(ratio).toBeGreaterThan(0.35);
  expect(ratio).toBeLessThan(0.65);
  await shot('practice-speed');

  // Down to 40 %, still 440 Hz; back to 100 %.
  await speed.fill('40');
  await expect.poll(async () => (await element())?.rate).toBe(0.4);
  expect(Math.abs((await pitch(page)) - 440) / 440).toBeLessThan(0.02);
  await speed.fill('100');
  await expect.poll(async () => (await element())?.rate).toBe(1);
});
