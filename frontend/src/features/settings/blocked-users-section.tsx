import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { ChevronDownIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { UserLink } from '../../components/user-link';
import { ApiError } from '../../lib/http';
import { sessionQueries } from '../../lib/session';
import { BLOCKED_LIST_SIGN_IN, profileQueries, useBlockToggle, type UserCardJson } from '../profiles';
import styles from './blocked-users-section.module.css';

export const BLOCKED_MESSAGES = {
  loading: 'Loading blocked users...',
  empty: 'No blocked users',
  signIn: BLOCKED_LIST_SIGN_IN,
  fetchFailed: (statusText: string) => `Failed to fetch blocked users: ${statusText}`,
  unblockFailed: (message: string) => `Failed to unblock user: ${message}`,
} as const;

function loadError(error: Error): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return BLOCKED_MESSAGES.signIn;
    return BLOCKED_MESSAGES.fetchFailed(error.statusText || `HTTP ${error.status}`);
  }
  return BLOCKED_MESSAGES.fetchFailed(error.message);
}

/**
 * Settings → Blocked users (spec §2 Settings, §4, §8 Blocked list): collapsed at first, loaded
 * when first opened; each row links to the profile and has Unblock.
 */
export function BlockedUsersSection() {
  const panelId = useId();
  const [expanded, setExpanded] = useState(false);
  const [opened, setOpened] = useState(false);
  // Nothing is asked before the first expand; the session check is normally cached already.
  const viewer = useQuery({ ...sessionQueries.me(), enabled: opened });
  const blocked = useQuery({
    ...profileQueries.blocks(viewer.data?.id),
    enabled: opened && !viewer.isPending,
  });

  function onToggle() {
    setExpanded((e) => !e);
    setOpened(true);
  }

  const count = blocked.data?.length;

  return (
    <section className={styles.section} aria-labelledby="blocked-title">
      <h2 id="blocked-title" className={styles.heading}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
        >
          <span className={styles.toggleText}>
            <span className={styles.title}>Blocked users</span>
            <span className={styles.subtitle}>
              People you blocked cannot listen to you, and you cannot listen to them.
            </span>
          </span>
          {count !== undefined ? <span className={styles.count}>{count}</span> : null}
          <ChevronDownIcon size={20} className={styles.chevron} />
        </button>
      </h2>
      <div id={panelId} className={styles.panel} hidden={!expanded}>
        {blocked.isPending ? (
          <p className={styles.status} role="status">
            <Spinner size="sm" label="" />
            {BLOCKED_MESSAGES.loading}
          </p>
        ) : blocked.isError ? (
          <Alert tone="error">{loadError(blocked.error)}</Alert>
        ) : blocked.data.length === 0 ? (
          <p className={styles.status}>{BLOCKED_MESSAGES.empty}</p>
        ) : (
          <ul className={styles.list}>
            {blocked.data.map((user) => (
              <li key={user.id}>
                <BlockedUserRow user={user} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function BlockedUserRow({ user }: { user: UserCardJson }) {
  const unblock = useBlockToggle();
  const [failure, setFailure] = useState<string | null>(null);
  const name = user.name || user.login;

  function onUnblock() {
    setFailure(null);
    unblock.mutate(
      { userId: String(user.id), block: false },
      {
        onError: (error) => {
          console.error('Unblock failed', error);
          setFailure(BLOCKED_MESSAGES.unblockFailed(error.message));
        },
      },
    );
  }

  return (
    <>
      <div className={styles.row}>
        <UserLink userId={user.id} name={name} login={user.login} avatarUrl={user.avatar_url} compact />
        <button
          type="button"
          className={`btn btn-secondary ${styles.unblock}`}
          onClick={onUnblock}
          disabled={unblock.isPending}
          aria-label={unblock.isPending ? undefined : `Unblock ${name}`}
        >
          {unblock.isPending ? <Spinner size="sm" label="" /> : null}
          {unblock.isPending ? 'Unblocking...' : 'Unblock'}
        </button>
      </div>
      {failure ? (
        <Alert tone="error" onDismiss={() => setFailure(null)} className={styles.rowError}>
          {failure}
        </Alert>
      ) : null}
    </>
  );
}
