/**
 * Another ActivityPub server on loopback (named `localhost`), written with Fedify
 * (`@fedify/fedify`, MIT): its own actors, WebFinger, HTTP signatures (draft-cavage, RSA-SHA256,
 * as Mastodon signs), JSON-LD reading of what arrives and delivery. Nothing of it is ours: it is
 * the "peer nobody here wrote" of issue 33. One person, with a key pair of their own; what their
 * inbox receives is kept as Fedify understood it (`inbound`, vocabulary objects) and as JSON-LD
 * (`received`); what they send goes through Fedify's own `sendActivity`.
 *
 * Fedify 1.5 is the last line that runs on Node 20 (the machine's Node); `allowPrivateAddress`
 * lets it fetch our server on loopback, as our debug mode lets us fetch it.
 */
import {
  Activity,
  createFederation,
  Endpoints,
  generateCryptoKeyPair,
  MemoryKvStore,
  Person,
  signRequest,
  type Actor,
  type Context,
} from '@fedify/fedify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Peer {
  origin: string;
  /** The person's actor id. */
  actor: string;
  handle: string;
  /** What their inbox received, as Fedify parsed it. */
  inbound: Activity[];
  /** The same, as JSON-LD (compacted by Fedify: `type` is `Accept`, `Create`…). */
  received: Array<Record<string, unknown>>;
  /** A new id on this server, for an activity or an object. */
  id: (kind: string) => URL;
  /** Fetches (signed) and parses an object of another server, as Fedify reads it. */
  lookup: (url: string) => Promise<unknown>;
  /**
   * Sends an activity from the person to the inbox of `recipient` (an actor's id), signed by
   * Fedify; the status the inbox answered (a refusal is a status, not a throw).
   */
  send: (recipient: string, activity: Activity) => Promise<number>;
  /** Posts `activity` to `inbox` signed with a key that is not the person's; the status. */
  sendForged: (inbox: string, activity: Activity) => Promise<number>;
  stop: () => Promise<void>;
}

export async function startPeer(username = 'bob', name = 'Bob Elsewhere'): Promise<Peer> {
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const inbound: Activity[] = [];
  const received: Array<Record<string, unknown>> = [];
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (identifier !== username) return null;
      const [pair] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name,
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pair!.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === username ? [keys] : []));
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, async (_ctx, activity) => {
    received.push((await activity.toJsonLd({ format: 'compact' })) as Record<string, unknown>);
    inbound.push(activity);
  });

  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(key, value);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(new URL(req.url ?? '/', origin), {
        method: req.method,
        headers,
        body: hasBody ? Buffer.concat(chunks) : undefined,
      });
      const response = await federation.fetch(request, { contextData: undefined });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://localhost:${port}`;
  const context = (): Context<void> => federation.createContext(new URL(origin), undefined);
  const actor = context().getActorUri(username).href;
  let sequence = 0;

  async function send(recipient: string, activity: Activity): Promise<number> {
    const ctx = context();
    const target = await ctx.lookupObject(recipient);
    if (target === null || !('inboxId' in target)) throw new Error(`${recipient} is not an actor Fedify can read`);
    try {
      await ctx.sendActivity({ identifier: username }, target as Actor, activity);
      return 200;
    } catch (error) {
      const status = /\((\d{3}) /.exec(String(error));
      if (status === null) throw error;
      return Number(status[1]);
    }
  }

  async function sendForged(inbox: string, activity: Activity): Promise<number> {
    const other = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const unsigned = new Request(inbox, {
      method: 'POST',
      headers: { 'Content-Type': 'application/activity+json' },
      body: JSON.stringify(await activity.toJsonLd({ format: 'compact' })),
    });
    const signed = await signRequest(unsigned, other.privateKey, new URL(`${actor}#main-key`));
    return (await fetch(signed)).status;
  }

  return {
    origin,
    actor,
    handle: `${username}@localhost:${port}`,
    inbound,
    received,
    id: (kind) => new URL(`${origin}/${kind}/${(sequence += 1)}`),
    lookup: (url) => context().lookupObject(url),
    send,
    sendForged,
    // Idle keep-alive connections of our server's deliveries would hold close() for minutes.
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
