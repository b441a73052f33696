/**
 * A track played on another site (issue 32): the post menu's "Copy embed code" gives a frame of
 * the server's embedded player; pasted into a page of another origin it plays (the Opus
 * rendition), seeks on its waveform and moves on to the post's next track, while the web app's
 * own pages still refuse to be framed there.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';

test('an embedded track plays, seeks and goes on inside another site', async ({ page, context, request, server, shot }, testInfo) => {
  test.setTimeout(120_000);
  test.skip(testInfo.project.name === 'phone', 'the frame is the same on a phone; one project plays it');
  const ana = await signedUpAccount(request, server, uniqueEmail('embed', testInfo.project.name), 'Ana Embeds');
  const tag = Math.random().toString(36).slice(2, 7);
  const [first, second] = [`Harbour ${tag}`, `Lighthouse ${tag}`];
  // A post of two tracks: the player lists both and goes from one to the next.
  const form = new FormData();
  const wav = (seconds: number, hz: number) => new Blob([new Uint8Array(toneWav(seconds, hz, 0.6))], { type: 'audio/wav' });
  form.append('audio_files', wav(3, 330), 'a.wav');
  form.append('audio_files', wav(4, 440), 'b.wav');
  form.append('titles', first);
  form.append('titles', second);
  const two = await request.post(`${server.url}/posts/audio`, {
    headers: { Authorization: `Bearer ${ana.token}` },
    multipart: form,
  });
  expect(two.status(), await two.text()).toBe(201);
  const post = (await two.json()) as { id: string };
  await expect
    .poll(async () => {
      const body = (await (await request.get(`${server.url}/posts/${post.id}`)).json()) as { audio: { renditions: unknown[] }[] };
      return body.audio.every((t) => t.renditions.length === 2);
    }, { timeout: 60_000 })
    .toBe(true);

  // "Copy embed code" in the post's menu.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/post/${post.id}`);
  await page.getByRole('button', { name: 'Post options' }).first().click();
  await page.getByRole('menuitem', { name: 'Copy embed code' }).click();
  await expect(page.getByTestId('toast')).toContainText('Embed code copied');
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toContain(`src="${server.url}/embed/post/${post.id}"`);
  expect(code).toContain('height="220"');

  // Pasted into a blog of another origin (a server of its own on another port: a real site's
  // address would be public, and Chromium keeps public pages from framing loopback ones).
  const blogPage = `<!doctype html><html><head><title>A blog</title></head><body style="font-family:sans-serif;max-width:640px;margin:24px auto">
    <h1>Songs from the harbour</h1><p>Recorded last week:</p>${code}
    <p>The app itself cannot be framed:</p><iframe id="app" src="${server.appUrl}/post/${post.id}" width="560" height="80"></iframe>
    </body></html>`;
  const blog = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(blogPage));
  await new Promise<void>((done) => blog.listen(0, '127.0.0.1', done));
  const blogUrl = `http://127.0.0.1:${(blog.address() as AddressInfo).port}/post`;
  expect(new URL(blogUrl).origin).not.toBe(new URL(server.url).origin);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto(blogUrl);
  const embed = page.frameLocator(`iframe[src$="/embed/post/${post.id}"]`);
  const playButton = embed.getByRole('button', { name: `Play ${first}` });
  await expect(playButton).toBeVisible();
  await expect(embed.getByRole('button', { name: new RegExp(second) })).toBeVisible();
  await shot('embed-in-another-site');

  await playButton.click();
  await expect(embed.getByRole('button', { name: `Pause ${first}` })).toHaveAttribute('aria-pressed', 'true');
  const at = embed.locator('.at');
  await expect(at).toHaveText('0:01', { timeout: 10_000 });
  // Seek near the end of the first track on its waveform: it ends, and the second plays.
  const wave = embed.getByRole('slider', { name: `Seek ${first}` });
  const box = await wave.boundingBox();
  expect(box).not.toBeNull();
  if (box) await page.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
  await expect(embed.getByRole('button', { name: `Pause ${second}` })).toBeVisible({ timeout: 10_000 });
  await expect(embed.locator('.title')).toHaveText(second);
  await expect(at).toHaveText('0:01', { timeout: 10_000 });
  await shot('embed-playing-the-next-track');
  // Both tracks streamed as Opus, never the original WAV.
  expect(fetched.filter((u) => u.includes('/media/') && u.endsWith('.weba'))).not.toHaveLength(0);
  expect(fetched.filter((u) => u.endsWith('.wav'))).toEqual([]);

  // The web app's page refused to be framed: the browser shows its error page in its place.
  await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-error://'))).toBe(true);
  await expect(page.frameLocator('#app').locator('#root')).toHaveCount(0);
  blog.close();
});
