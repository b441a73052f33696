/**
 * Federation in the browser (issue 33): a server of our own with SELFSOUND_FEDERATION=on, and
 * another ActivityPub server on loopback (e2e/support/fediverse.ts) whose person follows one
 * of ours and replies to her song. She sees the follow among her listeners and in her
 * notifications, the reply among the post's comments with his handle; as an admin she blocks
 * his server from Other servers, and his reply and follow are gone.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { execFileSync } from 'node:child_process';
import { watchCsp } from './support/csp';
import { startPeer } from './support/fediverse';
import { binaryPath, startServer } from './support/server';

test('a follower and a reply from another server, then its server blocked', async ({ page, request, shot }, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  const server = await startServer({ name: `federation-${project}`, host: 'localhost', env: { SELFSOUND_FEDERATION: 'on' } });
  const peer = await startPeer();
  try {
    const csp = watchCsp(page);
    const ana = await signedUpAccount(request, server, uniqueEmail('ana', project), 'Ana Fado');
    const post = await lyricsPost(request, server.url, ana.token, 'Harbour Lights');
    const actor = `${server.url}/ap/users/${ana.id}`;
    const inbox = `${server.url}/ap/inbox`;

    expect(await peer.send(inbox, { id: `${peer.origin}/follows/1`, type: 'Follow', actor: peer.actor, object: actor })).toBe(200);
    await expect.poll(() => peer.received.map((a) => a.type), { timeout: 30_000 }).toContain('Accept');
    const reply = {
      id: `${peer.origin}/notes/1`,
      type: 'Note',
      attributedTo: peer.actor,
      inReplyTo: `${server.url}/ap/posts/${post}`,
      content: `<p><span class="h-card"><a href="${server.appUrl}/user/${ana.id}" class="u-url mention">@<span>${ana.login}</span></a></span> Saudade in every line &amp; the chorus <b>stays</b>.</p>`,
    };
    expect(await peer.send(inbox, { id: `${peer.origin}/creates/1`, type: 'Create', actor: peer.actor, object: reply })).toBe(200);

    await signInThroughAddress(page, server.appUrl, ana.token);
    await page.goto(`${server.appUrl}/post/${post}`);
    await expect(page.getByText('Saudade in every line & the chorus stays.')).toBeVisible();
    await expect(page.getByText(`@${peer.handle}`).first()).toBeVisible();
    await shot('federation-reply');

    await page.goto(`${server.appUrl}/profile`);
    await expect(page.getByText(/1\s*Listener/i).first()).toBeVisible();
    await page.goto(`${server.appUrl}/notifications`);
    await expect(page.getByRole('listitem').filter({ hasText: 'started listening to you' })).toContainText(peer.handle);
    await shot('federation-notifications');

    // As an admin, she blocks his server: his account here goes with its reply and follow.
    execFileSync(binaryPath(), ['admin', 'grant', ana.email], {
      env: { ...process.env, SELFSOUND_DATA_DIR: server.dataDir, RUST_LOG: 'warn' },
    });
    await page.goto(`${server.appUrl}/admin/f`);
    const host = new URL(peer.origin).host;
    await page.getByLabel('Server to block').fill(host);
    await page.getByRole('button', { name: 'Block server' }).click();
    await page.getByRole('dialog', { name: `Block ${host}?` }).getByRole('button', { name: 'Block' }).click();
    await expect(page.getByText(`${host} blocked; 1 account removed`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Blocked servers' }).getByText(host)).toBeVisible();
    await shot('federation-servers');
    await page.goto(`${server.appUrl}/post/${post}`);
    await expect(page.getByRole('heading', { name: /Harbour Lights/ }).first()).toBeVisible();
    await expect(page.getByText('Saudade in every line')).toHaveCount(0);
    expect(await peer.send(inbox, { id: `${peer.origin}/follows/2`, type: 'Follow', actor: peer.actor, object: actor })).toBe(403);
    expect(csp).toEqual([]);
  } finally {
    await peer.stop();
    await server.stop();
  }
});
