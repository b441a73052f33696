/**
 * What Web Push needs of the browser, shared by Settings (Notifications on your devices) and
 * signing out: whether it can, the app's service worker (public/sw.js, scope /app/), this
 * browser's subscription, subscribing with the server's key, and unsubscribing.
 */
import { BASE_PATH } from './config';

const SCOPE = `${BASE_PATH}/`;
const WORKER_URL = `${BASE_PATH}/sw.js`;

/** The browser was not allowed to show notifications: blocked ('denied') or the question closed ('default'). */
export class PushNotAllowed extends Error {
  readonly permission: NotificationPermission;
  constructor(permission: NotificationPermission) {
    super(`Notifications are not allowed (${permission})`);
    this.permission = permission;
  }
}

/** Whether this browser can receive pushes and show them: a service worker, PushManager, Notification. */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** What the browser lets the app do with notifications now, or null where it has none. */
export function notificationPermission(): NotificationPermission | null {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : null;
}

/**
 * Asks the person to allow notifications. Call it in the click itself (before any await):
 * browsers only show the question for a person's gesture.
 */
export function askPermission(): Promise<NotificationPermission> {
  return Notification.requestPermission();
}

/** Registers the app's service worker (or finds it registered: the browser keeps one per scope). */
export function registerWorker(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.register(WORKER_URL, { scope: SCOPE });
}

/** This browser's push subscription, or null; nothing is registered to find out. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The server's VAPID public key (base64url, no padding) as the bytes PushManager wants. */
export function decodeKey(key: string): Uint8Array<ArrayBuffer> {
  const base64 = key.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, i) => byte === b[i]);
}

/**
 * Subscribes this browser with the server's key, once the person allowed it (`permission`, asked
 * in the click: see askPermission). A subscription this browser already has is reused; one made
 * for another key (the server's keys changed) cannot be, so it is ended first.
 */
export async function subscribe(
  publicKey: string,
  permission: Promise<NotificationPermission> = askPermission(),
): Promise<PushSubscription> {
  const answer = await permission;
  if (answer !== 'granted') throw new PushNotAllowed(answer);
  const applicationServerKey = decodeKey(publicKey);
  await registerWorker();
  // Subscribing needs an active worker; a first registration is still installing.
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing && !sameBytes(existing.options.applicationServerKey, applicationServerKey)) {
    await existing.unsubscribe();
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

/** Ends this browser's subscription, if it has one (the push service forgets its address). */
export async function unsubscribe(): Promise<void> {
  const subscription = await currentSubscription();
  await subscription?.unsubscribe();
}
