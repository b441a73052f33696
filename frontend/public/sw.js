/*
 * SelfSound's service worker (served as /app/sw.js, scope /app/; registered by src/lib/push.ts):
 * shows the notifications the server pushes when no SelfSound tab is open (Settings →
 * Notifications on your devices), opens what one is about when it is clicked, and keeps this
 * browser's device when the push service replaces its subscription. It caches nothing.
 *
 * Plain JavaScript, not bundled: the browser fetches it by this address and checks it for updates.
 */

/** The app's base ('/app/'), where its icon and pages live. */
const SCOPE = new URL(self.registration.scope).pathname;

/** What a push without readable data says, and where it leads. */
const GENERIC = { title: 'SelfSound', body: 'You have a new notification.', url: `${SCOPE}notifications` };

// A new version takes over at once: it only shows notifications, so no page depends on the old one.
self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

const text = (value, fallback) => (typeof value === 'string' && value !== '' ? value : fallback);

/** The push's { title, body, url, tag }, or the generic notification when its data is missing or not JSON. */
function readPush(data) {
  let payload;
  try {
    payload = data ? data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload !== 'object') return GENERIC;
  return {
    title: text(payload.title, GENERIC.title),
    body: typeof payload.body === 'string' ? payload.body : GENERIC.body,
    url: text(payload.url, GENERIC.url),
    tag: text(payload.tag, undefined),
  };
}

self.addEventListener('push', (event) => {
  const push = readPush(event.data);
  event.waitUntil(
    self.registration.showNotification(push.title, {
      body: push.body,
      tag: push.tag,
      icon: `${SCOPE}favicon.svg`,
      data: { url: push.url },
    }),
  );
});

/** An address of this origin to open: anything else (another site, nonsense) opens the notifications page. */
function sameOrigin(url) {
  const origin = self.location.origin;
  try {
    const target = new URL(text(url, GENERIC.url), origin);
    if (target.origin === origin) return target.href;
  } catch {
    // Not an address: the notifications page.
  }
  return new URL(GENERIC.url, origin).href;
}

/** A window of the app goes there and comes to the front; with none open, a new one opens. */
async function openPage(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((c) => new URL(c.url).origin === self.location.origin);
  // A page of the app (controlled by this worker) can be navigated; prefer one.
  const client = ours.find((c) => new URL(c.url).pathname.startsWith(SCOPE)) ?? ours[0];
  if (!client) {
    await self.clients.openWindow(url);
    return;
  }
  // Both are asked at once: a window may only be focused shortly after the click, and
  // navigating resolves only once the page has loaded.
  await Promise.all([client.navigate(url).catch(() => null), client.focus().catch(() => null)]);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data;
  event.waitUntil(openPage(sameOrigin(data && data.url)));
});

/** The API (at the origin's root) as the signed-in browser: the session cookie authenticates. */
async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return response.status === 204 ? null : response.json();
}

function decodeKey(key) {
  const base64 = key.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
}

/**
 * The push service replaced (or dropped) this browser's subscription: subscribe again with the
 * same key and tell the server, carrying the old device's name and kinds over and ending it.
 * Best effort: when the session is over, the server refuses and nothing is kept.
 */
async function renew(old, renewed) {
  const account = await call('GET', '/account/push').catch(() => null);
  const key = (old && old.options && old.options.applicationServerKey) || (account ? decodeKey(account.public_key) : null);
  const subscription =
    renewed || (key ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }) : null);
  if (!subscription) return;
  const before = old && account ? account.devices.find((d) => d.endpoint === old.endpoint) : undefined;
  const { endpoint, keys } = subscription.toJSON();
  const device = await call('POST', '/account/push/devices', before ? { endpoint, keys, name: before.name } : { endpoint, keys });
  if (!before || before.endpoint === endpoint) return;
  await call('PATCH', `/account/push/devices/${encodeURIComponent(device.id)}`, { kinds: before.kinds }).catch(() => null);
  await call('DELETE', `/account/push/devices/${encodeURIComponent(before.id)}`);
}

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(renew(event.oldSubscription, event.newSubscription).catch(() => undefined));
});
