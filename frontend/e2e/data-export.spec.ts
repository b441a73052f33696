/**
 * "Download my data" (issue 36) in the browser against the real server: asked for in Settings,
 * prepared by the server's job while the section says so, the link e-mailed, the archive
 * downloaded through it as a browser downloads, and its index.html opened from the unpacked zip.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, uniqueEmail } from './support/fixtures';
import { createVerifiedUser, lyricsPost, ownClientAddress, signInThroughAddress } from './support/accounts';
import { toneWav } from './support/audio';
import { watchCsp } from './support/csp';
import { gradientPng } from './support/images';
import { dataExportLink } from './support/mail';

/** Unpacks a zip with Python's zipfile (on every machine the tests run on). */
function unpack(zip: string, into: string): void {
  execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, into]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('download my data: asked in Settings, e-mailed, downloaded, and readable', async ({
  page,
  context,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('export', testInfo.project.name);
  const token = await createVerifiedUser(request, server, email, 'Export Ana');
  const headers = { Authorization: `Bearer ${token}` };
  const song = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: { audio_files: { name: 'Morning Take.wav', mimeType: 'audio/wav', buffer: toneWav(2, 440) } },
  });
  expect(song.status(), await song.text()).toBe(201);
  const picture = await request.post(`${server.url}/posts/media`, {
    headers,
    multipart: { files: { name: 'stage.png', mimeType: 'image/png', buffer: gradientPng(320) }, caption: 'On stage' },
  });
  expect(picture.status(), await picture.text()).toBe(201);
  await lyricsPost(request, server.url, token, 'Export Song');

  await ownClientAddress(context);
  await signInThroughAddress(page, server.appUrl, token);
  await page.goto(`${server.appUrl}/settings`);
  const section = page.getByRole('region', { name: 'Your data' });
  await section.scrollIntoViewIfNeeded();
  const asked = Date.now();
  await section.getByRole('button', { name: 'Request my data' }).click();
  // Prepared in the background; the section says when it is ready.
  await expect(section.getByText(/Your archive \(.+\) is ready\. We e-mailed you a link/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(section.getByText(/You can ask for a new archive after/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Request my data' })).toBeDisabled();
  await shot('data-export-ready');

  // The e-mailed link downloads the zip.
  const link = await dataExportLink(server.dataDir, email, asked);
  const downloading = page.waitForEvent('download');
  await page.goto(link).catch(() => undefined); // a download, not a page: the navigation is aborted
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^selfsound-export[a-z0-9_]*-\d{4}-\d{2}-\d{2}\.zip$/);
  const work = mkdtempSync(join(tmpdir(), 'selfsound-archive-'));
  try {
    const zip = join(work, 'archive.zip');
    await download.saveAs(zip);
    unpack(zip, join(work, 'unpacked'));
    const root = join(work, 'unpacked');
    const posts = JSON.parse(readFileSync(join(root, 'posts.json'), 'utf8')) as Array<{
      kind: string;
      files: Array<{ path: string; sha256: string }>;
    }>;
    expect(posts.map((p) => p.kind).sort()).toEqual(['audio', 'lyrics', 'media']);
    for (const file of posts.flatMap((p) => p.files)) {
      expect(sha256(readFileSync(join(root, file.path))), file.path).toBe(file.sha256);
    }

    // Its index.html, opened from the unpacked folder: the posts, a player for the track.
    await page.goto(`file://${join(root, 'index.html')}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Export Ana' })).toBeVisible();
    await expect(page.getByText('On stage')).toBeVisible();
    await expect(page.locator('article img')).toHaveCount(1);
    const loaded = await page.locator('article img').evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
    expect(loaded).toBe(320);
    await expect(page.locator('audio')).toHaveCount(1);
    await shot('data-export-index');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  expect(csp).toEqual([]);
});
