/**
 * One medium plays at a time (issue 19): a track playing in the shared player pauses when a
 * video opens in the overlay and starts; closing the video leaves the player paused, and Play
 * resumes the track where it was; its post page then offers it for download under its title.
 * (The other way round, the player pausing a video when it
 * starts, is `player-store.test.ts`: the overlay covers the player while a video is open.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { watchCsp } from './support/csp';

/** A six-second MP4 with a picture and a tone, made by ffmpeg (as the server's own checks use). */
function clipMp4(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'selfsound-e2e-clip-'));
  try {
    const out = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-v', 'error',
      '-f', 'lavfi', '-i', 'testsrc=duration=6:size=320x240:rate=15',
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6',
      '-shortest', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out,
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a video that starts pauses the track; closing it leaves the track ready to resume', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const ana = await signedUpAccount(request, server, uniqueEmail('one-medium', project), 'Ana Player');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const tag = Math.random().toString(36).slice(2, 7);
  const track = `Long Tone ${tag}`;
  // An older, shorter track: on her profile it comes after the long one, so it is next.
  const short = `Short Tone ${tag}`;
  const older = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: `${short}.wav`, mimeType: 'audio/wav', buffer: toneWav(2, 440) } },
  });
  expect(older.status(), await older.text()).toBe(201);
  const audio = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: `${track}.wav`, mimeType: 'audio/wav', buffer: toneWav(30, 330) } },
  });
  expect(audio.status(), await audio.text()).toBe(201);
  const video = await request.post(`${server.url}/posts/media`, {
    headers,
    multipart: { files: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: clipMp4() }, caption: `clip ${tag}` },
  });
  expect(video.status(), await video.text()).toBe(201);
  const audioId = String(((await audio.json()) as { id: string }).id);

  await signInThroughAddress(page, server.appUrl, ana.token);
  // Her profile lists both posts: the track plays on one card, the video opens from the other.
  await page.goto(`${server.appUrl}/profile`);
  await page.getByRole('button', { name: `Play ${track}` }).first().click();
  const bar = page.getByRole('region', { name: 'Now playing' });
  await expect(bar.getByRole('button', { name: `Pause ${track}` })).toBeVisible();
  await page.getByRole('button', { name: /^Play video/ }).first().click();
  const overlayVideo = page.getByTestId('media-overlay').locator('video');
  await expect.poll(() => overlayVideo.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
  // The track paused the moment the video started.
  await expect(bar.getByRole('button', { name: `Play ${track}` })).toBeVisible();
  await shot('one-medium-video-playing');

  await page.getByTestId('media-overlay').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('media-overlay')).toHaveCount(0);
  // Paused, not gone: Play resumes it.
  await bar.getByRole('button', { name: `Play ${track}` }).click();
  await expect(bar.getByRole('button', { name: `Pause ${track}` })).toBeVisible();

  // Elapsed and total time show at either width; the volume, on wide screens, is remembered.
  const phone = project === 'phone';
  await expect(bar.getByTestId('phone-time')).toBeVisible({ visible: phone });
  await expect(bar.getByText(/^0:30$/)).toBeVisible({ visible: !phone });
  if (!phone) {
    await bar.getByRole('button', { name: 'Mute' }).click();
    await expect(bar.getByRole('slider', { name: 'Volume' })).toHaveAttribute('aria-valuetext', '0%');
    await page.reload();
    await page.getByRole('button', { name: `Play ${track}` }).first().click();
    await expect(bar.getByRole('button', { name: 'Unmute' })).toBeVisible();
    await bar.getByRole('button', { name: 'Unmute' }).click();
  }
  await shot('player-bar-times-and-volume');
  // The keyboard: K pauses, and ? lists the keys.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('k');
  await expect(bar.getByRole('button', { name: `Play ${track}` })).toBeVisible();
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await shot('player-shortcuts');
  await page.keyboard.press('Escape');

  // Playing a track queued the rest of the list it came from: Next plays the older track, and
  // at its end nothing is left, so it stops.
  await bar.getByRole('button', { name: 'Next track' }).click();
  await expect(bar.getByRole('button', { name: `Pause ${short}` })).toBeVisible();
  await expect(bar.getByRole('button', { name: `Play ${short}` })).toBeVisible({ timeout: 10_000 });
  await expect(bar.getByRole('button', { name: 'Next track' })).toBeDisabled();

  // The post page offers the track for download, saved under its title.
  await page.goto(`${server.appUrl}/post/${audioId}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download ${track}` }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${track}\\.[a-z0-9]+$`));
  expect(csp).toEqual([]);
});
