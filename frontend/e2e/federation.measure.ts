/**
 * Deliveries to another server (issue 33), a figure to read, not a test
 * (`SELFSOUND_MEASURE=1 npx playwright test e2e/federation.measure.ts --project desktop`;
 * docs/federation.md, "Delivery"): a person of another server follows one of ours, who then
 * makes 300 posts; each is announced and delivered, signed, to that server's inbox by the
 * background jobs (one worker, as by default). Reports the activities a second its inbox
 * received, from the first to the last. `SELFSOUND_BIN` picks the binary (a release build
 * for the figure in the docs).
 */
import { Follow } from '@fedify/fedify';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signedUpAccount } from './support/accounts';
import { startPeer } from './support/fediverse';
import { startServer } from './support/server';

const POSTS = 300;

test('activities a second delivered to one inbox', async ({ request }, testInfo) => {
  test.setTimeout(600_000);
  const server = await startServer({
    name: `federation-measure-${testInfo.project.name}`,
    host: 'localhost',
    env: { SELFSOUND_FEDERATION: 'on', SELFSOUND_WRITE_LIMITS: 'post=100000/1m', RUST_LOG: 'warn' },
  });
  const peer = await startPeer();
  const arrivals: number[] = [];
  const received = peer.received;
  const push = received.push.bind(received);
  received.push = (...items) => {
    for (let i = 0; i < items.length; i += 1) arrivals.push(performance.now());
    return push(...items);
  };
  try {
    const ana = await signedUpAccount(request, server, uniqueEmail('ana', testInfo.project.name), 'Ana Fado');
    const actor = `${server.url}/ap/users/${ana.id}`;
    expect(await peer.send(actor, new Follow({ id: peer.id('follows'), actor: new URL(peer.actor), object: new URL(actor) }))).toBe(200);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    const started = performance.now();
    for (let i = 0; i < POSTS; i += 1) {
      const made = await request.post(`${server.url}/posts/lyrics`, {
        headers: { Authorization: `Bearer ${ana.token}` },
        data: { songTitle: `Song ${i}`, artistName: 'Ana', parts: [{ type: 'verse', lyrics: `line ${i}` }] },
      });
      expect(made.status()).toBe(201);
    }
    const posted = performance.now();
    console.log(`[measure] ${POSTS} posts made in ${((posted - started) / 1000).toFixed(1)} s; ${received.length - 1} delivered by then`);
    const waiting = POSTS + 1 - received.length;
    await expect.poll(() => received.length, { timeout: 300_000, intervals: [250] }).toBe(POSTS + 1);
    const span = (arrivals[POSTS]! - arrivals[1]!) / 1000;
    const drained = (arrivals[POSTS]! - posted) / 1000;
    console.log(
      `[measure] ${POSTS} Creates to one inbox in ${span.toFixed(2)} s (${((POSTS - 1) / span).toFixed(1)}/s, as fast as they were posted); ` +
        `${waiting} still to go when the last was posted, delivered ${drained.toFixed(2)} s later (${(waiting / Math.max(drained, 0.001)).toFixed(1)}/s)`,
    );
  } finally {
    await peer.stop();
    await server.stop();
  }
});
