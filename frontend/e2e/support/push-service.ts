/**
 * A real push service on loopback for the browser journeys: `web-push-testing` (npm), which
 * takes subscriptions, checks each push's VAPID signature against the key the subscription
 * named, decrypts it (RFC 8291) and lists what each subscription received.
 *
 * Chromium's own push service is Google's (the machine running the tests has no internet), so
 * the page's `pushManager.subscribe()` is answered by this service instead ([`pushThroughService`]):
 * the subscription the server keeps, the encryption, the signature and the delivery are real;
 * the decrypted message is then handed to the page's real service worker through CDP
 * (`ServiceWorker.deliverPushMessage`), as Chromium does with what its push service delivers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { FRONTEND_DIR, freePort } from './server';

export interface PushService {
  url: string;
  /** Subscribes as a browser would for `key` (the server's VAPID key): its JSON and its name here. */
  subscribe: (key: string) => Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>;
  /** What the subscription `hash` received, decrypted. */
  received: (hash: string) => Promise<string[]>;
  stop: () => Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const port = await freePort();
  const script = join(FRONTEND_DIR, 'node_modules/web-push-testing/src/bin/server.js');
  const child: ChildProcess = spawn(process.execPath, [script, String(port)], { stdio: 'ignore' });
  const url = `http://localhost:${port}`;
  const post = async (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  for (let i = 0; ; i++) {
    try {
      if ((await post('/status', {})).ok) break;
    } catch {
      // Not listening yet.
    }
    if (i > 200) throw new Error('web-push-testing did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    subscribe: async (key) => {
      const r = await post('/subscribe', { applicationServerKey: key, userVisibleOnly: 'true' });
      if (!r.ok) throw new Error(`subscribing failed: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { data: { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string } }).data;
    },
    received: async (hash) => {
      const r = await post('/get-notifications', { clientHash: hash });
      return ((await r.json()) as { data: { messages: string[] } }).data.messages;
    },
    stop: async () => {
      child.kill();
      await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/**
 * Makes the pages of `context` subscribe through `service`: `PushManager.subscribe()` asks it
 * (with the key the page passed), `getSubscription()` answers the one made (kept in
 * localStorage across pages), `unsubscribe()` forgets it. Answers the names of the
 * subscriptions made, in order.
 */
export async function pushThroughService(context: BrowserContext, service: PushService): Promise<string[]> {
  const made: string[] = [];
  await context.exposeBinding('__subscribeAtPushService', async (_source, key: string) => {
    const sub = await service.subscribe(key);
    made.push(sub.clientHash);
    return { endpoint: sub.endpoint, keys: sub.keys, key };
  });
  await context.addInitScript(() => {
    if (typeof PushManager === 'undefined') return;
    type Kept = { endpoint: string; keys: { p256dh: string; auth: string }; key: string };
    const STORE = 'e2e-push-subscription';
    const fromBase64url = (text: string) =>
      Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    const toBase64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const wrap = (kept: Kept) => ({
      endpoint: kept.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: fromBase64url(kept.key) },
      getKey: (name: 'p256dh' | 'auth') => fromBase64url(kept.keys[name]),
      toJSON: () => ({ endpoint: kept.endpoint, expirationTime: null, keys: kept.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(STORE);
        return true;
      },
    });
    const binding = (window as unknown as { __subscribeAtPushService: (key: string) => Promise<Kept> }).__subscribeAtPushService;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const raw = options?.applicationServerKey;
      const bytes = raw instanceof ArrayBuffer ? new Uint8Array(raw) : new Uint8Array((raw as ArrayBufferView).buffer);
      const kept = await binding(toBase64url(bytes));
      localStorage.setItem(STORE, JSON.stringify(kept));
      return wrap(kept);
    };
    PushManager.prototype.getSubscription = async function () {
      const kept = localStorage.getItem(STORE);
      return kept ? (wrap(JSON.parse(kept) as Kept)) : null;
    };
  });
  return made;
}
