/**
 * A stand-in for the browser's Web Push in jsdom (which has none): `Notification` with its
 * permission and question, `PushManager`, and `navigator.serviceWorker` whose one registration
 * subscribes with `endpoint` and fixed keys. What the page did is recorded.
 */
import { vi } from 'vitest';

/** The keys every fake subscription has, as `toJSON()` gives them. */
export const FAKE_PUSH_KEYS = { p256dh: 'BFakeP256dhKey', auth: 'FakeAuthSecret' } as const;

export interface FakePush {
  /** How often the permission question was shown. */
  asked: number;
  /** The service workers registered (script and scope). */
  registered: Array<{ url: string; scope: string | undefined }>;
  /** The options of each pushManager.subscribe(). */
  subscribed: Array<{ userVisibleOnly: boolean | undefined; applicationServerKey: number[] }>;
  /** How many subscriptions were ended. */
  unsubscribed: number;
  /** This browser's subscription address now, or null. */
  endpoint: () => string | null;
  restore: () => void;
}

interface Options {
  /** Notification.permission before anything is asked. */
  permission?: NotificationPermission;
  /** What the person answers when asked. */
  answer?: NotificationPermission;
  /** The address the push service gives a new subscription. */
  endpoint?: string;
  /** This browser is already subscribed (with `endpoint`), its worker registered. */
  subscribed?: boolean;
}

export function fakePush({
  permission = 'default',
  answer = 'granted',
  endpoint = 'https://push.example.test/send/abc',
  subscribed = false,
}: Options = {}): FakePush {
  const record: FakePush = {
    asked: 0,
    registered: [],
    subscribed: [],
    unsubscribed: 0,
    endpoint: () => current?.endpoint ?? null,
    restore: () => {
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, 'serviceWorker');
    },
  };

  const subscription = (key: ArrayBuffer | null) => {
    const made = {
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: key },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { ...FAKE_PUSH_KEYS } }),
      unsubscribe: () => {
        if (current === made) current = null;
        record.unsubscribed += 1;
        return Promise.resolve(true);
      },
    };
    return made;
  };
  let current: ReturnType<typeof subscription> | null = subscribed ? subscription(null) : null;
  let hasWorker = subscribed;

  const pushManager = {
    getSubscription: () => Promise.resolve(current),
    subscribe: (options: PushSubscriptionOptionsInit) => {
      // The page passes the key's bytes (lib/push decodes the server's base64url).
      const bytes = Uint8Array.from(options.applicationServerKey as Uint8Array<ArrayBuffer>);
      record.subscribed.push({ userVisibleOnly: options.userVisibleOnly, applicationServerKey: Array.from(bytes) });
      current ??= subscription(bytes.buffer);
      return Promise.resolve(current);
    },
  };
  const registration = { scope: 'http://localhost:3000/app/', pushManager };

  class FakeNotification {
    static permission: NotificationPermission = permission;
    static requestPermission() {
      record.asked += 1;
      FakeNotification.permission = answer;
      return Promise.resolve(answer);
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('PushManager', class {});
  const serviceWorker = {
    register: (url: string, options?: RegistrationOptions) => {
      record.registered.push({ url, scope: options?.scope });
      hasWorker = true;
      return Promise.resolve(registration);
    },
    getRegistration: () => Promise.resolve(hasWorker ? registration : undefined),
    get ready() {
      return Promise.resolve(registration);
    },
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  return record;
}
