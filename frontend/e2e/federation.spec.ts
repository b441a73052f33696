/**
 * Federation against a peer nobody here wrote (issue 33): a server of our own with
 * SELFSOUND_FEDERATION=on, and another ActivityPub server written with Fedify on loopback
 * (e2e/support/fediverse.ts). Its person follows one of ours and is accepted; her new track
 * reaches his inbox as a Note with an audio Document, as Fedify reads it; he likes, announces
 * and replies to it, and a wrongly signed activity of his is refused. She sees the like, the
 * repost and the reply (with his handle), him among her listeners and in her notifications; as
 * an admin she blocks his server from Other servers, and nothing of him is left or arrives.
 */
import { Accept, Announce, Create, Document, Follow, Hashtag, Like, Note, PUBLIC_COLLECTION } from '@fedify/fedify';
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { execFileSync } from 'node:child_process';
import { watchCsp } from './support/csp';
import { startPeer } from './support/fediverse';
import { binaryPath, startServer } from './support/server';

test('a server written with Fedify follows, hears, likes, reposts and replies; then it is blocked', async ({ page, request, shot }, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  const server = await startServer({ name: `federation-${project}`, host: 'localhost', env: { SELFSOUND_FEDERATION: 'on' } });
  const peer = await startPeer();
  try {
    const csp = watchCsp(page);
    const ana = await signedUpAccount(request, server, uniqueEmail('ana', project), 'Ana Fado');
    const actor = `${server.url}/ap/users/${ana.id}`;
    const inbox = `${server.url}/ap/inbox`;
    const me = new URL(peer.actor);

    // He follows her: Fedify reads her actor, signs the Follow, and reads our signed Accept.
    const follow = new Follow({ id: peer.id('follows'), actor: me, object: new URL(actor) });
    expect(await peer.send(actor, follow)).toBe(200);
    await expect.poll(() => peer.inbound.filter((a) => a instanceof Accept).length, { timeout: 30_000 }).toBe(1);
    const accepted = await (peer.inbound.find((a) => a instanceof Accept) as Accept).getObject();
    expect(accepted).toBeInstanceOf(Follow);
    expect(accepted?.id?.href).toBe(follow.id?.href);

    // Her new track reaches him as a Note with the track as an audio Document.
    const made = await request.post(`${server.url}/posts/audio`, {
      headers: { Authorization: `Bearer ${ana.token}` },
      multipart: {
        audio_files: { name: 'harbour.wav', mimeType: 'audio/wav', buffer: toneWav(2, 330) },
        titles: 'Harbour Lights',
        artists: 'Ana Fado',
        caption: 'A first take #fado',
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const post = String(((await made.json()) as { id: string }).id);
    const noteId = `${server.url}/ap/posts/${post}`;
    await expect.poll(() => peer.inbound.filter((a) => a instanceof Create).length, { timeout: 30_000 }).toBe(1);
    const note = await (peer.inbound.find((a) => a instanceof Create) as Create).getObject();
    expect(note).toBeInstanceOf(Note);
    expect(note?.id?.href).toBe(noteId);
    expect(note?.attributionId?.href).toBe(actor);
    expect(String(note?.content)).toContain(`${server.appUrl}/tag/fado`);
    const tags = [];
    for await (const tag of (note as Note).getTags()) tags.push(tag);
    expect(tags.some((tag) => tag instanceof Hashtag && tag.name?.toString() === '#fado')).toBe(true);
    const attachments = [];
    for await (const attachment of (note as Note).getAttachments()) attachments.push(attachment);
    const track = attachments.find((a): a is Document => a instanceof Document);
    expect(track?.mediaType).toMatch(/^audio\//);
    expect(track?.name?.toString()).toContain('Harbour Lights');
    expect(track?.url).toBeTruthy();
    // The post is also what Fedify finds at its id.
    expect(await peer.lookup(noteId)).toBeInstanceOf(Note);

    // He likes it, announces it and replies to it, mentioning her.
    const object = new URL(noteId);
    const like = new Like({ id: peer.id('likes'), actor: me, object });
    expect(await peer.send(actor, like)).toBe(200);
    expect(await peer.send(actor, new Announce({ id: peer.id('announces'), actor: me, object, to: PUBLIC_COLLECTION }))).toBe(200);
    const reply = new Note({
      id: peer.id('notes'),
      attribution: me,
      replyTarget: object,
      to: PUBLIC_COLLECTION,
      content: `<p><span class="h-card"><a href="${server.appUrl}/user/${ana.id}" class="u-url mention">@<span>${ana.login}</span></a></span> Saudade in every line &amp; the chorus <b>stays</b>.</p>`,
    });
    expect(await peer.send(actor, new Create({ id: peer.id('creates'), actor: me, object: reply, to: PUBLIC_COLLECTION }))).toBe(200);
    // Signed with a key that is not his: refused, and nothing comes of it.
    const forged = new Like({ id: peer.id('likes'), actor: me, object: new URL(`${server.url}/ap/posts/${post}`) });
    expect(await peer.sendForged(inbox, forged)).toBe(401);
    // Sent again, an activity counts once.
    expect(await peer.send(actor, like)).toBe(200);

    const counts = async () => {
      const res = await request.get(`${server.url}/posts/${post}`, { headers: { Authorization: `Bearer ${ana.token}` } });
      const body = (await res.json()) as { likes_count: number; comments_count: number; reposts_count: number };
      return [body.likes_count, body.comments_count, body.reposts_count];
    };
    expect(await counts()).toEqual([1, 1, 1]);

    await signInThroughAddress(page, server.appUrl, ana.token);
    await page.goto(`${server.appUrl}/post/${post}`);
    await expect(page.getByText('Saudade in every line & the chorus stays.')).toBeVisible();
    await expect(page.getByText(`@${peer.handle}`).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Like, 1 like' })).toBeVisible();
    await shot('federation-reply');
    // She answers in the browser: his server reads her comment as a reply to her post.
    await page.getByPlaceholder("What's on your mind?").fill('Obrigada, Bob!');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Obrigada, Bob!')).toBeVisible();
    await expect.poll(() => peer.inbound.filter((a) => a instanceof Create).length, { timeout: 30_000 }).toBe(2);
    const answer = await (peer.inbound.filter((a) => a instanceof Create)[1] as Create).getObject();
    expect(answer).toBeInstanceOf(Note);
    expect((answer as Note).replyTargetId?.href).toBe(noteId);
    expect((answer as Note).attributionId?.href).toBe(actor);
    expect(String((answer as Note).content)).toContain('Obrigada, Bob!');

    await page.goto(`${server.appUrl}/profile`);
    await page.getByRole('button', { name: 'Listeners: 1, show who' }).click();
    const listeners = page.getByRole('dialog', { name: 'Listeners' });
    await expect(listeners.getByRole('link', { name: new RegExp(`Bob Elsewhere\\s*@${peer.handle}`) })).toBeVisible();
    await shot('federation-listeners');
    await listeners.getByRole('link', { name: /Bob Elsewhere/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Bob Elsewhere' })).toBeVisible();
    await shot('federation-remote-profile');
    await page.goto(`${server.appUrl}/notifications`);
    for (const what of ['started listening to you', 'liked your post', 'reposted your post', 'mentioned you in a comment']) {
      await expect(page.getByRole('listitem').filter({ hasText: what }).first()).toContainText(peer.handle);
    }
    await shot('federation-notifications');

    // As an admin, she blocks his server: his account here goes with its like, repost, reply
    // and follow (her own answer stays), and nothing more of his arrives.
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
    expect(await counts()).toEqual([0, 1, 0]);
    expect(await peer.send(actor, new Like({ id: peer.id('likes'), actor: me, object }))).toBe(403);
    expect(await peer.send(actor, new Follow({ id: peer.id('follows'), actor: me, object: new URL(actor) }))).toBe(403);
    expect(await counts()).toEqual([0, 1, 0]);
    await page.goto(`${server.appUrl}/post/${post}`);
    await expect(page.getByRole('button', { name: 'Like, 0 likes' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Comments 1 comment/ })).toBeVisible();
    await expect(page.getByText('Obrigada, Bob!')).toBeVisible();
    await expect(page.getByText('Saudade in every line')).toHaveCount(0);
    await shot('federation-after-block');
    expect(csp).toEqual([]);
  } finally {
    await peer.stop();
    await server.stop();
  }
});
