/**
 * Another ActivityPub server, in a few lines of Node on loopback (named `localhost`): one person
 * with an RSA key pair of their own and an actor document, an inbox that keeps what arrives,
 * and activities sent with HTTP signatures as Mastodon signs them (draft-cavage: the request
 * target, host, date and the body's SHA-256 digest, RSA-SHA256).
 */
import { createHash, createSign, generateKeyPairSync } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Peer {
  origin: string;
  /** The person's actor id. */
  actor: string;
  handle: string;
  /** What its inbox received, parsed. */
  received: Array<Record<string, unknown>>;
  /** Posts a signed activity to `inbox`; the status it got. */
  send: (inbox: string, activity: Record<string, unknown>) => Promise<number>;
  stop: () => Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startPeer(username = 'bob', name = 'Bob Elsewhere'): Promise<Peer> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const received: Array<Record<string, unknown>> = [];
  let document: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === `/users/${username}`) {
        res.writeHead(200, { 'content-type': 'application/activity+json' });
        res.end(JSON.stringify(document));
      } else if (req.method === 'POST' && req.url === `/users/${username}/inbox`) {
        received.push(JSON.parse(await body(req)) as Record<string, unknown>);
        res.writeHead(202);
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://localhost:${port}`;
  const actor = `${origin}/users/${username}`;
  document = {
    '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
    id: actor,
    type: 'Person',
    preferredUsername: username,
    name,
    inbox: `${actor}/inbox`,
    publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem: publicKey },
  };

  function send(inbox: string, activity: Record<string, unknown>): Promise<number> {
    const text = JSON.stringify(activity);
    const url = new URL(inbox);
    const date = new Date().toUTCString();
    const digest = `SHA-256=${createHash('sha256').update(text).digest('base64')}`;
    const signing = `(request-target): post ${url.pathname}\nhost: ${url.host}\ndate: ${date}\ndigest: ${digest}`;
    const signature = createSign('RSA-SHA256').update(signing).sign(privateKey, 'base64');
    const headers = {
      Host: url.host,
      Date: date,
      Digest: digest,
      'Content-Type': 'application/activity+json',
      Signature: `keyId="${actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
    };
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: url.port, path: url.pathname, method: 'POST', headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  }

  return {
    origin,
    actor,
    handle: `${username}@localhost:${port}`,
    received,
    send,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
