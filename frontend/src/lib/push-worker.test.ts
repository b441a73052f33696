// @vitest-environment node
/**
 * The service worker of public/sw.js (lib/push registers it), run as the browser runs it: the
 * script alone in a worker's global scope, here a fake one recording what it did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const SCRIPT = readFileSync(join(import.meta.dirname, '../../public/sw.js'), 'utf8');
const ORIGIN = 'https://selfsound.test';

type Listener = (event: Record<string, unknown>) => void;

interface FakeWindow {
  url: string;
  navigated: string[];
  focused: number;
}

/** Loads the worker; `dispatch` fires an event and waits for what it asked to wait for. */
function worker({ windows = [], answers = {} }: { windows?: FakeWindow[]; answers?: Record<string, unknown> } = {}) {
  const listeners = new Map<string, Listener>();
  const shown: Array<{ title: string; options: unknown }> = [];
  const opened: string[] = [];
  const fetched: Array<{ method: string; path: string; body: unknown; credentials: unknown }> = [];
  const subscribed: unknown[] = [];
  const renewed = {
    toJSON: () => ({ endpoint: 'https://push.test/new', expirationTime: null, keys: { p256dh: 'P', auth: 'A' } }),
  };
  const self = {
    location: new URL(`${ORIGIN}/app/sw.js`),
    registration: {
      scope: `${ORIGIN}/app/`,
      showNotification: (title: string, options: unknown) => (shown.push({ title, options }), Promise.resolve()),
      pushManager: { subscribe: (options: unknown) => (subscribed.push(options), Promise.resolve(renewed)) },
    },
    clients: {
      claim: () => Promise.resolve(),
      matchAll: () =>
        Promise.resolve(
          windows.map((w) => ({
            url: w.url,
            navigate: (url: string) => (w.navigated.push(url), Promise.resolve(null)),
            focus: () => ((w.focused += 1), Promise.resolve(null)),
          })),
        ),
      openWindow: (url: string) => (opened.push(url), Promise.resolve(null)),
    },
    skipWaiting: () => Promise.resolve(),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  };
  const fetch = (path: string, init: { method: string; body?: string; credentials?: string }) => {
    fetched.push({ method: init.method, path, body: init.body && JSON.parse(init.body), credentials: init.credentials });
    const answer = answers[`${init.method} ${path}`];
    return Promise.resolve(
      answer === undefined
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
  };
  runInNewContext(SCRIPT, { self, fetch, atob, URL });

  async function dispatch(type: string, fields: Record<string, unknown> = {}) {
    const waits: Array<Promise<unknown>> = [];
    listeners.get(type)?.({ ...fields, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  }
  return { dispatch, shown, opened, fetched, subscribed };
}

const data = (body: string | null) => (body === null ? null : { json: () => JSON.parse(body) as unknown });

describe('the service worker', () => {
  it("shows a push's title and body, with its tag, the app's icon and where it leads", async () => {
    const sw = worker();
    const push = { title: 'Ben mentioned you', body: '“@ada listen”', url: '/app/post/12', tag: 'mention-12' };
    await sw.dispatch('push', { data: data(JSON.stringify(push)) });
    expect(sw.shown).toEqual([
      {
        title: 'Ben mentioned you',
        options: { body: '“@ada listen”', tag: 'mention-12', icon: '/app/favicon.svg', data: { url: '/app/post/12' } },
      },
    ]);
  });

  it('shows a generic notification for a push without data or with data it cannot read', async () => {
    const sw = worker();
    await sw.dispatch('push', { data: null });
    await sw.dispatch('push', { data: data('not json') });
    await sw.dispatch('push', { data: data('"a string"') });
    const generic = {
      title: 'SelfSound',
      options: { body: 'You have a new notification.', tag: undefined, icon: '/app/favicon.svg', data: { url: '/app/notifications' } },
    };
    expect(sw.shown).toEqual([generic, generic, generic]);
  });

  it('takes an open window of the app there and to the front, or opens one', async () => {
    const elsewhere: FakeWindow = { url: 'https://other.test/app/home', navigated: [], focused: 0 };
    const app: FakeWindow = { url: `${ORIGIN}/app/home`, navigated: [], focused: 0 };
    const sw = worker({ windows: [elsewhere, app] });
    let closed = 0;
    const notification = (url: unknown) => ({ data: { url }, close: () => (closed += 1) });
    await sw.dispatch('notificationclick', { notification: notification('/app/user/3') });
    expect(app).toMatchObject({ navigated: [`${ORIGIN}/app/user/3`], focused: 1 });
    expect(elsewhere).toMatchObject({ navigated: [], focused: 0 });
    expect(closed).toBe(1);

    const alone = worker();
    await alone.dispatch('notificationclick', { notification: notification('/app/post/12') });
    expect(alone.opened).toEqual([`${ORIGIN}/app/post/12`]);
  });

  it('never leads to another site', async () => {
    const sw = worker();
    const close = () => undefined;
    for (const url of ['https://evil.test/app/post/1', '//evil.test/x', 'javascript:alert(1)', undefined]) {
      await sw.dispatch('notificationclick', { notification: { data: { url }, close } });
    }
    await sw.dispatch('notificationclick', { notification: { data: null, close } });
    expect(sw.opened).toEqual(Array(5).fill(`${ORIGIN}/app/notifications`));
  });

  it('subscribes again when the push service replaces the subscription, keeping the device as it was', async () => {
    const key = new Uint8Array([4, 1, 2]).buffer;
    const old = { endpoint: 'https://push.test/old', options: { applicationServerKey: key } };
    const kinds = { mentions: true, comments: false, listens: true, likes: false, reposts: true };
    const sw = worker({
      answers: {
        'GET /account/push': { public_key: 'BAEC', devices: [{ id: '5', name: 'Chrome on Mac', endpoint: old.endpoint, kinds }] },
        'POST /account/push/devices': { id: '9' },
      },
    });
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: old, newSubscription: null });
    expect(sw.subscribed).toEqual([{ userVisibleOnly: true, applicationServerKey: key }]);
    expect(sw.fetched).toEqual([
      { method: 'GET', path: '/account/push', body: undefined, credentials: 'same-origin' },
      {
        method: 'POST',
        path: '/account/push/devices',
        body: { endpoint: 'https://push.test/new', keys: { p256dh: 'P', auth: 'A' }, name: 'Chrome on Mac' },
        credentials: 'same-origin',
      },
      { method: 'PATCH', path: '/account/push/devices/9', body: { kinds }, credentials: 'same-origin' },
      { method: 'DELETE', path: '/account/push/devices/5', body: undefined, credentials: 'same-origin' },
    ]);
  });
});
