/**
 * The production topology, end to end (topology.ts: PostgreSQL, Garage, an SMTP catcher, two
 * selfsound processes, Caddy with deploy/Caddyfile). Two people use it through Caddy only:
 * Ada signs up in the browser, verifies with the link of the e-mail that went out over SMTP,
 * signs in and posts a track and a picture; Bea listens to her, likes the track and comments,
 * and Ada's badge rises as it happens. Both processes have answered requests by then (their
 * logs say so), and both serve the same bytes of each medium, whichever process wrote it (the
 * answer's X-Request-Id names the writer in its log). Then the process that took the
 * track is killed (SIGKILL) and the journey goes on on the other one: Bea's page reloads, she
 * comments again, Ada's badge rises again, Ada plays the track and sees the picture. No one is
 * shown an error, and no request of theirs is answered with a 5xx.
 */
import { openSync, readFileSync, readSync, closeSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test, uniqueEmail } from '../support/fixtures';
import { PASSWORD, signInThroughAddress, signedUpAccount } from '../support/accounts';
import { watchDialogs } from '../support/dialogs';
import { toneWav } from '../support/audio';
import { gradientPng } from '../support/images';
import { verificationLink } from '../support/mail';
import { topologyFromEnv, type AppProcess, type TopologyInfo } from './topology';

/** What a log file holds past byte `from`. */
function readFrom(path: string, from: number): string {
  const size = statSync(path).size;
  if (size <= from) return '';
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** The request lines (one per answered request, `selfsound::access`) a process logged past `from`. */
function accessLines(p: AppProcess, from: number): string[] {
  return readFrom(p.logFile, from)
    .split('\n')
    .filter((line) => line.includes('selfsound::access'));
}

/** The process whose log names the request id (each answer carries its id in X-Request-Id). */
function processThatAnswered(info: TopologyInfo, requestId: string | undefined): AppProcess {
  expect(requestId, 'the answer carries X-Request-Id').toBeTruthy();
  const answered = info.processes.filter((p) => readFileSync(p.logFile, 'utf8').includes(requestId ?? ''));
  expect(answered.map((p) => p.name), `the process that answered ${requestId}`).toHaveLength(1);
  return answered[0]!;
}

/** The bytes of `fileUrl` (a media address) asked of one process directly, past Caddy. */
async function mediaFrom(p: AppProcess, fileUrl: string, base: string): Promise<Buffer> {
  const { pathname } = new URL(fileUrl, base);
  expect(pathname).toMatch(/^\/media\//);
  const res = await fetch(`${p.url}${pathname}`);
  expect(res.status, `${p.name} serves ${pathname}`).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * What goes wrong for the people of `context`, as their browsers see it: answers with a 5xx,
 * requests that fail (a live stream cut by the kill is the one failure a person does not see:
 * the browser reconnects it; media reads the player gives up on are its own choice), dialogs.
 */
function watchTrouble(context: BrowserContext) {
  const trouble: string[] = [];
  context.on('response', (res) => {
    if (res.status() >= 500) trouble.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  context.on('requestfailed', (req) => {
    const { pathname } = new URL(req.url());
    const failure = req.failure()?.errorText ?? '';
    if (pathname === '/notifications/stream' || failure === 'net::ERR_ABORTED') return;
    trouble.push(`failed ${req.method()} ${req.url()}: ${failure}`);
  });
  return trouble;
}

// A failed run keeps what each part said (the topology's folder goes at teardown).
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  const info = topologyFromEnv();
  for (const [name, path] of [...info.processes.map((p) => [p.name, p.logFile]), ['caddy', info.caddyLog]]) {
    if (name && path) await testInfo.attach(`${name}.log`, { path, contentType: 'text/plain' });
  }
});

const notificationsLink = (page: Page) => page.getByRole('link', { name: /^Notifications/ });

interface PostAnswer {
  id: string;
  user: { id: string };
  audio?: { file_url: string }[];
  media?: { file_url: string; file_type: string }[];
}

test('two processes behind Caddy: sign-up by e-mail, media, likes, comments and live badges survive a SIGKILL', async ({
  page,
  browser,
  shot,
}, testInfo: TestInfo) => {
  const started = Date.now();
  const info = topologyFromEnv();
  const [app1, app2] = info.processes;
  if (!app1 || !app2) throw new Error('two processes');
  // Requests of this journey: counted from here in each process's log.
  const logStart = new Map(info.processes.map((p) => [p.name, statSync(p.logFile).size]));
  const requestsSince = (p: AppProcess) => accessLines(p, logStart.get(p.name) ?? 0).length;
  const dir = testInfo.outputPath();
  const files = { audio: join(dir, 'Night Shift.wav'), image: join(dir, 'rehearsal.png') };
  writeFileSync(files.audio, toneWav(4));
  writeFileSync(files.image, gradientPng(600));
  const tag = Math.random().toString(36).slice(2, 7);
  const adaTrouble = watchTrouble(page.context());
  const adaDialogs = watchDialogs(page);
  const shotOf = (who: Page, name: string) =>
    who.screenshot({ path: join(ARTIFACTS_DIR, `scale-out-desktop-${name}.png`), animations: 'disabled' });

  // Ada signs up through Caddy; the verification e-mail goes out over SMTP to the catcher.
  const email = uniqueEmail('ada', 'scale-out');
  await page.goto(`${info.appUrl}/sign-up`);
  await page.getByLabel('Name').fill('Ada Scale');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/app/verify' && url.searchParams.get('email') === email);
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await shot('verify');
  const link = await verificationLink(info.root, email);
  expect(link.startsWith(`${info.url}/authorization/verify?token=`), `the link goes through Caddy: ${link}`).toBe(true);
  await page.goto(link);
  await expect(page.getByText('Your email has been verified. You can now sign in.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${info.appUrl}/home`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications');

  // She posts a track and a picture; each answer names the process that took it.
  const published = async (path: string, form: () => Promise<void>) => {
    await page.goto(`${info.appUrl}/${path}`);
    await form();
    const answer = page.waitForResponse(
      (res) => res.request().method() === 'POST' && /^\/posts\/(audio|media)$/.test(new URL(res.url()).pathname),
    );
    await page.getByRole('button', { name: 'Publish' }).click();
    const res = await answer;
    expect(res.status()).toBe(201);
    const post = (await res.json()) as PostAnswer;
    await expect(page).toHaveURL(`${info.appUrl}/home`, { timeout: 20_000 });
    return { post, writer: processThatAnswered(info, res.headers()['x-request-id']) };
  };
  const track = await published('add-post-audio', async () => {
    await page.getByLabel('Audio files').setInputFiles(files.audio);
    await expect(page.getByLabel('Title')).toHaveValue('Night Shift');
    await page.getByLabel(/Caption/).fill(`Through the balancer ${tag}`);
    await shot('create-audio');
  });
  const picture = await published('add-post-media', async () => {
    await page.getByLabel('Photos and videos').setInputFiles(files.image);
    await page.getByLabel(/Caption/).fill(`Rehearsal room ${tag}`);
  });
  const trackUrl = track.post.audio?.[0]?.file_url ?? '';
  const pictureUrl = picture.post.media?.[0]?.file_url ?? '';
  expect(trackUrl).not.toBe('');
  expect(pictureUrl).not.toBe('');
  const adaId = String(track.post.user.id);
  const card = (text: string) => page.locator('[data-feed="for-you"] article').filter({ hasText: text });
  await expect(card(`Through the balancer ${tag}`)).toContainText('Night Shift');
  await expect(card(`Rehearsal room ${tag}`)).toBeVisible();
  await shot('feed');

  // Media written through one process are served by the other (and by itself): the same bytes
  // from the shared bucket. The track is kept as it was sent.
  for (const [url, writer] of [
    [trackUrl, track.writer],
    [pictureUrl, picture.writer],
  ] as const) {
    const [one, two] = [await mediaFrom(app1, url, info.url), await mediaFrom(app2, url, info.url)];
    expect(one.length, `${url} written through ${writer.name}`).toBeGreaterThan(0);
    expect(one.equals(two), `${url} is the same from both processes`).toBe(true);
  }
  expect((await mediaFrom(app1, trackUrl, info.url)).equals(readFileSync(files.audio))).toBe(true);

  // Bea (signed up through the API, also through Caddy and SMTP) listens to Ada, likes the
  // track and comments on it, in a browser of her own. Ada's badge rises with each, live.
  const beaContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const bea = await beaContext.newPage();
  const beaTrouble = watchTrouble(beaContext);
  const beaDialogs = watchDialogs(bea);
  const beaAccount = await signedUpAccount(
    beaContext.request,
    { url: info.url, dataDir: info.root },
    uniqueEmail('bea', 'scale-out'),
    'Bea Listener',
  );
  await signInThroughAddress(bea, info.appUrl, beaAccount.token);
  await expect(bea).toHaveURL(`${info.appUrl}/home`);

  await bea.goto(`${info.appUrl}/user/${adaId}`);
  await bea.getByRole('button', { name: 'Listen', exact: true }).click();
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 1 unread');
  await bea.goto(`${info.appUrl}/post/${track.post.id}`);
  await bea.getByRole('button', { name: /^Like, 0 likes/ }).click();
  await expect(bea.getByRole('button', { name: /^Like, 1 like/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 2 unread');
  const comment = async (text: string) => {
    await bea.getByPlaceholder("What's on your mind?").fill(text);
    await bea.getByRole('button', { name: 'Publish' }).click();
    await expect(bea.getByText(text)).toBeVisible();
  };
  await comment(`Lovely take ${tag}`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 3 unread');
  await expect(notificationsLink(page).getByTestId('unread-badge')).toHaveAttribute('data-count', '3');
  await shot('badge-3');
  await shotOf(bea, 'bea-commented');

  // Both processes have answered this journey's requests.
  const before = { [app1.name]: requestsSince(app1), [app2.name]: requestsSince(app2) };
  console.log(`[scale-out] requests before the kill: ${JSON.stringify(before)}`);
  expect(before[app1.name]).toBeGreaterThan(0);
  expect(before[app2.name]).toBeGreaterThan(0);

  // The process that took the track is killed, without warning.
  const victim = track.writer;
  const survivor = victim === app1 ? app2 : app1;
  const caddyLogAtKill = statSync(info.caddyLog).size;
  process.kill(victim.pid, 'SIGKILL');
  console.log(`[scale-out] SIGKILL ${victim.name} (pid ${victim.pid}); ${survivor.name} goes on`);

  // Reading goes on at once: a request Caddy sends to the dead process finds no connection and
  // is tried on the other. Bea's page reloads with her like and comment.
  await bea.reload();
  await expect(bea.getByText(`Lovely take ${tag}`)).toBeVisible();
  await expect(bea.getByRole('button', { name: /^Like, 1 like/ })).toHaveAttribute('aria-pressed', 'true');
  // Caddy takes the dead process out at its next liveness probe (within a second); from then
  // on writes go to the survivor too. (Caddy before 2.11.4 cannot resend a request body to
  // another process, so a write that reaches the dead one before that fails: deploy/Caddyfile.)
  await expect
    .poll(
      () =>
        readFrom(info.caddyLog, caddyLogAtKill)
          .split('\n')
          .some((line) => line.includes('health_checker.active') && line.includes(`"${victim.address}"`) && !line.includes('host is up')),
      { message: `Caddy's probe finds ${victim.name} down`, timeout: 15_000 },
    )
    .toBe(true);

  // Bea comments again; Ada's badge rises again, on a stream served by the survivor.
  await comment(`Still here ${tag}`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 4 unread', { timeout: 20_000 });
  await shot('badge-4-after-kill');
  await shotOf(bea, 'bea-after-kill');

  // Ada opens the track the dead process took: it plays, from the shared bucket.
  await page.goto(`${info.appUrl}/post/${track.post.id}`);
  const player = page.getByRole('group', { name: /Night Shift by/ }).first();
  await player.getByRole('button', { name: 'Play Night Shift' }).click();
  await expect(player.getByRole('button', { name: 'Pause Night Shift' })).toBeVisible();
  // Its clock moves (position / length), so the bytes arrived.
  await expect(player.getByText(/^0:0[1-3] \/ 0:04$/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(`Still here ${tag}`)).toBeVisible();
  await shot('playing-after-kill');
  // And the picture.
  await page.goto(`${info.appUrl}/post/${picture.post.id}`);
  const image = page.locator('article img[src*="/media/"]').first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await shot('picture-after-kill');

  // The survivor serves what the dead process wrote.
  expect((await mediaFrom(survivor, trackUrl, info.url)).equals(readFileSync(files.audio))).toBe(true);
  expect((await mediaFrom(survivor, pictureUrl, info.url)).length).toBeGreaterThan(0);

  // Nobody saw an error.
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(bea.getByRole('alert')).toHaveCount(0);
  expect(adaTrouble).toEqual([]);
  expect(beaTrouble).toEqual([]);
  expect(adaDialogs).toEqual([]);
  expect(beaDialogs).toEqual([]);

  const after = { [app1.name]: requestsSince(app1), [app2.name]: requestsSince(app2) };
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`[scale-out] requests over the journey: ${JSON.stringify(after)} (${victim.name} killed midway); ${seconds} s`);
  testInfo.annotations.push({ type: 'requests per process', description: JSON.stringify({ before, after }) });
  expect(after[survivor.name]).toBeGreaterThan(before[survivor.name] ?? 0);
  await beaContext.close();
});
