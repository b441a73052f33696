/**
 * Federation in the production topology (topology.ts: two selfsound processes on one
 * PostgreSQL behind Caddy, both with SELFSOUND_FEDERATION=on): another server (Fedify, on
 * loopback) follows Ada through Caddy, and her posts, made through Caddy so that either
 * process takes them, reach its inbox once each: the background jobs of two processes share
 * the work and never deliver an activity twice. The processes' logs say which of them
 * delivered what.
 */
import { readFileSync } from 'node:fs';
import { Accept, Create, Follow } from '@fedify/fedify';
import { expect, test, uniqueEmail } from '../support/fixtures';
import { signedUpAccount } from '../support/accounts';
import { startPeer } from '../support/fediverse';
import { topologyFromEnv, type AppProcess } from './topology';

const POSTS = 12;

/** The federation jobs a process finished, from its JSON log: `kind subject` each. */
function deliveriesOf(p: AppProcess): string[] {
  return readFileSync(p.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"job done"') && line.includes('federation.deliver'))
    .map((line) => {
      const fields = (JSON.parse(line) as { fields?: Record<string, unknown> }).fields ?? {};
      return String(fields.subject ?? fields.job);
    });
}

test('two processes behind Caddy deliver each activity to another server once', async ({ request }) => {
  const info = topologyFromEnv();
  const peer = await startPeer('cleo', 'Cleo Elsewhere');
  try {
    const ada = await signedUpAccount(request, { url: info.url, dataDir: info.root }, uniqueEmail('ada-fed', 'scale-out'), 'Ada Fediverse');
    const actor = `${info.url}/ap/users/${ada.id}`;
    const follow = new Follow({ id: peer.id('follows'), actor: new URL(peer.actor), object: new URL(actor) });
    expect(await peer.send(actor, follow)).toBe(200);
    await expect.poll(() => peer.inbound.filter((a) => a instanceof Accept).length, { timeout: 30_000 }).toBe(1);

    const posted: string[] = [];
    for (let i = 0; i < POSTS; i += 1) {
      const res = await request.post(`${info.url}/posts/lyrics`, {
        headers: { Authorization: `Bearer ${ada.token}` },
        data: { songTitle: `Scale ${i}`, artistName: 'Ada', parts: [{ type: 'verse', lyrics: `line ${i}` }] },
      });
      expect(res.status(), await res.text()).toBe(201);
      posted.push(`${info.url}/ap/posts/${String(((await res.json()) as { id: string }).id)}`);
    }
    const notes = async () => {
      const ids: string[] = [];
      for (const activity of peer.inbound.filter((a) => a instanceof Create)) ids.push((await activity.getObject())?.id?.href ?? '');
      return ids;
    };
    await expect.poll(async () => (await notes()).length, { timeout: 60_000 }).toBe(POSTS);
    // Time for a second delivery of anything, were there one: each job's lease is far shorter.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const arrived = await notes();
    expect(arrived.length, 'each post arrived once').toBe(POSTS);
    expect([...arrived].sort()).toEqual([...posted].sort());
    expect(peer.inbound.filter((a) => a instanceof Accept)).toHaveLength(1);

    const byProcess = info.processes.map((p) => ({ name: p.name, deliveries: deliveriesOf(p) }));
    const all = byProcess.flatMap((p) => p.deliveries);
    expect(all).toHaveLength(POSTS + 1);
    expect(new Set(all).size, 'no delivery job ran twice').toBe(all.length);
    console.log(`[scale-out] deliveries by process: ${byProcess.map((p) => `${p.name} ${p.deliveries.length}`).join(', ')}`);
  } finally {
    await peer.stop();
  }
});
