import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LogOutIcon, MonitorIcon, PhoneIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatRelativeTime } from '../../lib/format';
import { ApiError } from '../../lib/http';
import { sessionQueries } from '../../lib/session';
import { authQueries, useEndSession, useLogOutEverywhere, type SessionJson } from '../auth';
import styles from './sessions-section.module.css';

export const SESSIONS_MESSAGES = {
  loading: 'Loading sessions...',
  empty: 'No active sessions',
  loadFailed: (reason: string) => `Failed to load sessions: ${reason}`,
  endFailed: (message: string) => `Failed to sign out that device: ${message}`,
  everywhereFailed: (message: string) => `Failed to sign out everywhere: ${message}`,
  confirmEverywhere: 'Sign out on every device, this one included?',
  thisDevice: 'This device',
  lastActive: (when: string) => `Last active ${when}`,
  showAll: (count: number) => `Show all ${count} sessions`,
  showFewer: 'Show fewer',
} as const;

/** How many sessions show before 'Show all': this device and the four most recently used. */
export const SESSIONS_SHOWN = 5;

function reasonOf(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? (error.statusText || `HTTP ${error.status}`);
  return error.message;
}

const MOBILE = /android|iphone|ipad|ios|mobile/i;

/** This browser's session first, then the others as the server sent them (last active first). */
function ordered(sessions: SessionJson[]): SessionJson[] {
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

/**
 * Settings → Sessions (issue 7): every device signed in to the account, loaded when Settings
 * opens. Each other device can be signed out; "Sign out everywhere" ends them all, this one too,
 * after asking. Past [`SESSIONS_SHOWN`], the rest wait behind 'Show all N sessions'.
 */
export function SessionsSection() {
  const navigate = useNavigate();
  const viewer = useQuery(sessionQueries.me());
  const sessions = useQuery({ ...authQueries.sessions(viewer.data?.id), enabled: viewer.data != null });
  const everywhere = useLogOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Dozens of sessions would push Log out and the Danger zone far down: the newest few show.
  const [showAll, setShowAll] = useState(false);

  function onSignOutEverywhere() {
    setFailure(null);
    everywhere.mutate(undefined, {
      onSuccess: () => void navigate('/sign-in'),
      onError: (error) => {
        setConfirming(false);
        // A 401: this session was already over, and the route guard takes it from here.
        if (error instanceof ApiError && error.sessionExpired) return;
        setFailure(SESSIONS_MESSAGES.everywhereFailed(reasonOf(error)));
      },
    });
  }

  const count = sessions.data?.length;

  return (
    <section className={styles.section} aria-labelledby="sessions-title">
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h2 id="sessions-title">Sessions</h2>
          {count !== undefined ? <span className={styles.count}>{count}</span> : null}
        </div>
        <p>The devices where you are signed in. Sign out of any you do not recognise.</p>
      </header>

      <div className={styles.body}>
        {sessions.isPending ? (
          <p className={styles.status} role="status">
            <Spinner size="sm" label="" />
            {SESSIONS_MESSAGES.loading}
          </p>
        ) : sessions.isError ? (
          <div className={styles.loadError}>
            <Alert tone="error">{SESSIONS_MESSAGES.loadFailed(reasonOf(sessions.error))}</Alert>
            <button type="button" className="btn btn-secondary" onClick={() => void sessions.refetch()}>
              Try Again
            </button>
          </div>
        ) : sessions.data.length === 0 ? (
          <p className={styles.status}>{SESSIONS_MESSAGES.empty}</p>
        ) : (
          <>
            <ul className={styles.list} aria-label="Signed-in devices" id="signed-in-devices">
              {ordered(sessions.data)
                .slice(0, showAll ? undefined : SESSIONS_SHOWN)
                .map((session) => (
                  <li key={session.id}>
                    <SessionRow session={session} />
                  </li>
                ))}
            </ul>
            {sessions.data.length > SESSIONS_SHOWN ? (
              <button
                type="button"
                className={`btn btn-ghost ${styles.more}`}
                aria-expanded={showAll}
                aria-controls="signed-in-devices"
                onClick={() => setShowAll((all) => !all)}
              >
                {showAll ? SESSIONS_MESSAGES.showFewer : SESSIONS_MESSAGES.showAll(sessions.data.length)}
              </button>
            ) : null}
          </>
        )}
      </div>

      {failure ? (
        <Alert tone="error" onDismiss={() => setFailure(null)} className={styles.alert}>
          {failure}
        </Alert>
      ) : null}

      <div className={styles.footer}>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setConfirming(true)}
          disabled={everywhere.isPending}
          aria-haspopup="dialog"
        >
          <LogOutIcon size={18} />
          Sign out everywhere
        </button>
      </div>

      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere"
        message={SESSIONS_MESSAGES.confirmEverywhere}
        confirmLabel="Sign out everywhere"
        busyLabel="Signing out..."
        busy={everywhere.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={onSignOutEverywhere}
      />
    </section>
  );
}

function SessionRow({ session }: { session: SessionJson }) {
  const end = useEndSession();
  const [failure, setFailure] = useState<string | null>(null);
  const device = session.device || 'Unknown device';
  const lastSeen = new Date(session.last_seen_at);
  const DeviceIcon = MOBILE.test(device) ? PhoneIcon : MonitorIcon;

  function onSignOut() {
    setFailure(null);
    end.mutate(session.id, {
      onError: (error) => {
        // 404: it had already ended; the list is asked again and the row goes.
        if (error instanceof ApiError && (error.status === 404 || error.sessionExpired)) return;
        setFailure(SESSIONS_MESSAGES.endFailed(reasonOf(error)));
      },
    });
  }

  return (
    <>
      <div className={styles.row} data-current={session.current || undefined}>
        <span className={styles.icon} aria-hidden="true">
          <DeviceIcon size={20} />
        </span>
        <div className={styles.details}>
          <p className={styles.device}>
            <span>{device}</span>
            {session.current ? <span className={styles.thisDevice}>{SESSIONS_MESSAGES.thisDevice}</span> : null}
          </p>
          <p className={styles.meta}>
            <time dateTime={session.last_seen_at} title={lastSeen.toLocaleString()}>
              {SESSIONS_MESSAGES.lastActive(formatRelativeTime(lastSeen))}
            </time>
          </p>
        </div>
        {session.current ? null : (
          <button
            type="button"
            className={`btn btn-secondary ${styles.signOut}`}
            onClick={onSignOut}
            disabled={end.isPending}
            aria-label={end.isPending ? undefined : `Sign out ${device}`}
          >
            {end.isPending ? <Spinner size="sm" label="" /> : null}
            {end.isPending ? 'Signing out...' : 'Sign out'}
          </button>
        )}
      </div>
      {failure ? (
        <Alert tone="error" onDismiss={() => setFailure(null)} className={styles.rowError}>
          {failure}
        </Alert>
      ) : null}
    </>
  );
}
