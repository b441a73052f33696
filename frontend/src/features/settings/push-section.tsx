import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { BellIcon } from '../../components/first-load-icons';
import { MonitorIcon, PhoneIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatRelativeTime } from '../../lib/format';
import { ApiError, NetworkError } from '../../lib/http';
import { askPermission, notificationPermission, pushSupported, PushNotAllowed } from '../../lib/push';
import { useViewer } from '../../lib/session';
import {
  pushQueries,
  useChangePushKinds,
  useSendTestPush,
  useTurnOffPush,
  useTurnOnPush,
  type PushDevice,
  type PushKinds,
} from './push-api';
import styles from './push-section.module.css';

export const PUSH_MESSAGES = {
  intro:
    'Get mentions, comments, new listeners, likes and reposts on your phone or computer, even when SelfSound is not open. ' +
    'Each device you turn on is told only what you choose, until you sign out there.',
  unsupported: 'This browser cannot show notifications from SelfSound.',
  blocked: "Notifications are blocked for SelfSound in this browser's settings.",
  notAllowed: 'Notifications were not turned on. Allow them when your browser asks.',
  browserFailed: 'This browser could not turn on notifications. Please try again.',
  none: 'Notifications are not on for any of your devices yet.',
  loadFailed: 'Could not load your devices. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  turnOn: 'Turn on notifications on this device',
  turnedOn: 'Notifications turned on for this device',
  turnedOff: 'Notifications turned off',
  thisDevice: 'This device',
  sent: 'Sent. It should arrive in a moment.',
  meta: (added: string, notified: string | null) =>
    notified ? `Added ${added} · Last notified ${notified}` : `Added ${added}`,
} as const;

/** The kinds a device can be told about, in the order shown, with their labels. */
export const PUSH_KIND_LABELS: Readonly<Record<keyof PushKinds, string>> = {
  mentions: 'Mentions',
  comments: 'Comments on your posts',
  listens: 'New listeners',
  likes: 'Likes',
  reposts: 'Reposts',
};
const KINDS = Object.keys(PUSH_KIND_LABELS) as Array<keyof PushKinds>;

function detailOf(error: Error): string {
  if (error instanceof PushNotAllowed) return error.permission === 'denied' ? PUSH_MESSAGES.blocked : PUSH_MESSAGES.notAllowed;
  if (error instanceof ApiError) return error.serverMessage ?? `HTTP ${error.status}`;
  if (error instanceof NetworkError) return PUSH_MESSAGES.network;
  // The browser's own refusal (no push service reachable, a worker that would not start).
  return PUSH_MESSAGES.browserFailed;
}

/**
 * A refusal shown in the section. A 401 ended the session (the route guard takes over); a
 * blocked permission is said by the section itself, under the list.
 */
function shownIn(setError: (text: string) => void) {
  return (e: Error) => {
    if (e instanceof ApiError && e.sessionExpired) return;
    if (e instanceof PushNotAllowed && e.permission === 'denied') return;
    setError(detailOf(e));
  };
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

const MOBILE = /android|iphone|ipad|mobile/i;

/** This browser's device first, then the others as the server sent them. */
function ordered(devices: PushDevice[]): PushDevice[] {
  return [...devices.filter((d) => d.this_session), ...devices.filter((d) => !d.this_session)];
}

/**
 * One device: its name, when it was added and last notified, the kinds it is told about (each
 * saved as it changes), a test, and Turn off.
 */
function DeviceRow({ device }: { device: PushDevice }) {
  const change = useChangePushKinds();
  const test = useSendTestPush();
  const off = useTurnOffPush();
  const toast = useToast();
  // Kinds whose change is on its way: shown as asked until the server's answer replaces them.
  const [saving, setSaving] = useState<Partial<PushKinds>>({});
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const notified = device.last_sent_at ? formatRelativeTime(device.last_sent_at, undefined, { days: 'words' }) : null;
  const DeviceIcon = MOBILE.test(device.name) ? PhoneIcon : MonitorIcon;

  function onKind(kind: keyof PushKinds, on: boolean) {
    setError(null);
    setSaving((s) => ({ ...s, [kind]: on }));
    // mutateAsync: every change settles its own box (mutate's callbacks follow only the last).
    change
      .mutateAsync({ id: device.id, kinds: { [kind]: on } })
      .catch(shownIn(setError))
      .finally(() =>
        setSaving((s) => {
          const rest = { ...s };
          delete rest[kind];
          return rest;
        }),
      );
  }

  function onTest() {
    setError(null);
    setSent(false);
    test.mutate(device.id, { onSuccess: () => setSent(true), onError: shownIn(setError) });
  }

  function onTurnOff() {
    setError(null);
    off.mutate(
      { id: device.id, endpoint: device.endpoint },
      { onSuccess: () => toast.show(PUSH_MESSAGES.turnedOff), onError: shownIn(setError) },
    );
  }

  return (
    <li className={styles.item} data-testid="push-device" data-current={device.this_session || undefined}>
      <div className={styles.head}>
        <span className={styles.icon} aria-hidden="true">
          <DeviceIcon size={20} />
        </span>
        <div className={styles.details}>
          <p className={styles.device}>
            <span>{device.name}</span>
            {device.this_session ? <span className={styles.thisDevice}>{PUSH_MESSAGES.thisDevice}</span> : null}
          </p>
          <p className={styles.meta}>{PUSH_MESSAGES.meta(day(device.created_at), notified)}</p>
        </div>
        <div className={styles.rowActions}>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={onTest}
            disabled={test.isPending || off.isPending}
            aria-label={test.isPending ? undefined : `Send a test to ${device.name}`}
          >
            {test.isPending ? <Spinner size="sm" label="" /> : null}
            {test.isPending ? 'Sending...' : 'Send a test'}
          </button>
          <button
            type="button"
            className="btn btn-danger-outline"
            onClick={onTurnOff}
            disabled={off.isPending}
            aria-label={off.isPending ? undefined : `Turn off ${device.name}`}
          >
            {off.isPending ? <Spinner size="sm" label="" /> : null}
            {off.isPending ? 'Turning off...' : 'Turn off'}
          </button>
        </div>
      </div>
      <fieldset className={styles.kinds} disabled={off.isPending}>
        {/* Every device has the same boxes: the hidden name tells their groups apart when heard. */}
        <legend>
          Notify <span className="visually-hidden">{device.name}</span> about
        </legend>
        <div className={styles.choices}>
          {KINDS.map((kind) => (
            <label key={kind} className={`choice ${styles.kind}`}>
              <input
                type="checkbox"
                checked={saving[kind] ?? device.kinds[kind]}
                onChange={(e) => onKind(kind, e.target.checked)}
              />
              <span>{PUSH_KIND_LABELS[kind]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className={styles.sent} role="status">
        {sent ? PUSH_MESSAGES.sent : null}
      </p>
      {error ? (
        <Alert tone="error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      ) : null}
    </li>
  );
}

/**
 * Settings → Notifications on your devices (issue 36; beyond spec §7; docs/security.md, "Web Push"): the account's devices that show
 * notifications when no SelfSound tab is open (Web Push; public/sw.js shows them), what each is
 * told about, and turning this browser on. A device ends with the session that turned it on.
 */
export function PushSection() {
  const viewer = useViewer();
  const supported = pushSupported();
  const settings = useQuery({ ...pushQueries.devices(viewer?.id), enabled: viewer != null });
  const browser = useQuery({ ...pushQueries.browser(), enabled: supported && viewer != null });
  const turnOn = useTurnOnPush();
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);
  const permission = notificationPermission();

  const devices = settings.data ? ordered(settings.data.devices) : [];
  // This browser counts as on when the account has its subscription (not merely its session).
  const onHere = browser.data != null && devices.some((d) => d.endpoint === browser.data);

  function onTurnOn() {
    if (!settings.data) return;
    setFailure(null);
    // Asked in the click itself: browsers show the question only for a person's gesture.
    const answer = askPermission();
    turnOn.mutate(
      { publicKey: settings.data.public_key, permission: answer },
      { onSuccess: () => toast.show(PUSH_MESSAGES.turnedOn), onError: shownIn(setFailure) },
    );
  }

  return (
    <section className={styles.section} aria-labelledby="push-title">
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h2 id="push-title">Notifications on your devices</h2>
          {devices.length ? <span className={styles.count}>{devices.length}</span> : null}
        </div>
        <p>{PUSH_MESSAGES.intro}</p>
      </header>
      {failure ? (
        <Alert tone="error" className={styles.alert} onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      <div className={styles.body}>
        {settings.isPending ? (
          <Spinner size="sm" label="Loading your devices..." />
        ) : settings.isError ? (
          <Alert tone="error">{PUSH_MESSAGES.loadFailed}</Alert>
        ) : devices.length > 0 ? (
          <ul className={styles.list} aria-label="Devices with notifications on">
            {devices.map((d) => (
              <DeviceRow key={d.id} device={d} />
            ))}
          </ul>
        ) : (
          <p className={styles.none}>{PUSH_MESSAGES.none}</p>
        )}
      </div>
      {!supported ? (
        <p className={styles.note}>{PUSH_MESSAGES.unsupported}</p>
      ) : permission === 'denied' ? (
        <p className={styles.note}>{PUSH_MESSAGES.blocked}</p>
      ) : settings.isSuccess && browser.isSuccess && !onHere ? (
        <div className={styles.row}>
          <button type="button" className="btn btn-primary" onClick={onTurnOn} disabled={turnOn.isPending}>
            {turnOn.isPending ? <Spinner size="sm" label="" /> : <BellIcon size={18} />}
            {turnOn.isPending ? 'Turning on...' : PUSH_MESSAGES.turnOn}
          </button>
        </div>
      ) : null}
    </section>
  );
}
