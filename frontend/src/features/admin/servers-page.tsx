import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RelativeTime } from '../../components/relative-time';
import { PageSpinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { AdminRefused } from './admin-access-required';
import { refusalOf } from './api';
import { LoadError } from './components/load-error';
import { PageHeader } from './components/page-header';
import {
  SERVERS_WORDS,
  federationOff,
  serverErrorMessage,
  serverQueries,
  useBlockDomain,
  useUnblockDomain,
  type BlockedDomainJson,
} from './servers-api';
import { useLeaveWhenRefused } from './use-leave-when-refused';
import styles from './servers-page.module.css';

/**
 * /admin/f (issue 33, beyond the spec): the servers an admin blocked, a form to block one (asked
 * first: its people's accounts here go) and 'Lift block' on each. While federation is off, it
 * says so.
 */
export function ServersPage() {
  usePageTitle(SERVERS_WORDS.heading);
  const viewerId = useViewer()?.id;
  const list = useQuery(serverQueries.blocked(viewerId));
  const block = useBlockDomain();
  const unblock = useUnblockDomain();
  const toast = useToast();
  const [domain, setDomain] = useState('');
  const [asking, setAsking] = useState<string | null>(null);
  const [lifting, setLifting] = useState<BlockedDomainJson | null>(null);
  const refusal = useLeaveWhenRefused(list.error ?? block.error ?? unblock.error);

  if (refusal) return <AdminRefused refusal={refusal} />;

  function ask(event: FormEvent) {
    event.preventDefault();
    const name = domain.trim();
    if (name) setAsking(name);
  }

  function confirmBlock() {
    if (!asking) return;
    block.mutate(asking, {
      onSuccess: (answer) => {
        setAsking(null);
        setDomain('');
        const accounts = answer.accounts_removed === 1 ? '1 account' : `${answer.accounts_removed} accounts`;
        toast.show(`${answer.domain} blocked; ${accounts} removed`);
      },
      onError: (error) => {
        setAsking(null);
        if (!refusalOf(error)) toast.show(serverErrorMessage(error, SERVERS_WORDS.blockFailed));
      },
    });
  }

  function confirmLift() {
    if (!lifting) return;
    const name = lifting.domain;
    unblock.mutate(name, {
      onSuccess: () => {
        setLifting(null);
        toast.show(`Block lifted: ${name}`);
      },
      onError: (error) => {
        setLifting(null);
        if (!refusalOf(error)) toast.show(serverErrorMessage(error, SERVERS_WORDS.unblockFailed));
      },
    });
  }

  const off = federationOff(list.error);
  const blocked = list.data ?? [];

  return (
    <>
      <PageHeader title={SERVERS_WORDS.heading} lead={off ? undefined : SERVERS_WORDS.lead} />
      {list.isPending ? (
        <PageSpinner label="Loading servers" />
      ) : off ? (
        <p className={`card ${styles.off}`}>{SERVERS_WORDS.off}</p>
      ) : list.isError ? (
        <LoadError message={SERVERS_WORDS.loadFailed} busy={list.isFetching} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <form className={`card ${styles.form}`} onSubmit={ask}>
            <label htmlFor="block-domain" className={styles.label}>
              {SERVERS_WORDS.label}
            </label>
            <div className={styles.field}>
              <input
                id="block-domain"
                className="input"
                value={domain}
                onChange={(e) => setDomain(e.target.value)}
                placeholder={SERVERS_WORDS.placeholder}
                autoComplete="off"
                spellCheck={false}
                maxLength={260}
              />
              <button type="submit" className="btn btn-danger" disabled={!domain.trim() || block.isPending}>
                {block.isPending ? SERVERS_WORDS.blocking : SERVERS_WORDS.block}
              </button>
            </div>
          </form>
          {blocked.length === 0 ? (
            <p className={styles.empty}>{SERVERS_WORDS.none}</p>
          ) : (
            <ul className={`card ${styles.list}`} aria-label={SERVERS_WORDS.listLabel}>
              {blocked.map((b) => (
                <li key={b.domain} className={styles.row}>
                  <div className={styles.text}>
                    <p className={styles.domain}>{b.domain}</p>
                    <p className={styles.meta}>
                      Blocked by @{b.admin_login} · <RelativeTime time={b.blocked_at} />
                    </p>
                  </div>
                  <button
                    type="button"
                    className={`btn btn-secondary ${styles.lift}`}
                    onClick={() => setLifting(b)}
                    aria-haspopup="dialog"
                    aria-label={`${SERVERS_WORDS.unblock}: ${b.domain}`}
                  >
                    {SERVERS_WORDS.unblock}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`Block ${asking ?? ''}?`}
        message="Its people’s accounts here are removed, with their likes, reposts, replies and follows, and nothing more is taken from it. Lifting the block later does not bring them back."
        confirmLabel="Block"
        busyLabel={SERVERS_WORDS.blocking}
        busy={block.isPending}
        onConfirm={confirmBlock}
        onCancel={() => setAsking(null)}
      />
      <ConfirmDialog
        open={lifting !== null}
        title={`Lift the block on ${lifting?.domain ?? ''}?`}
        message="Its people can follow, like, boost and reply here again."
        confirmLabel="Lift"
        busyLabel={SERVERS_WORDS.unblocking}
        busy={unblock.isPending}
        onConfirm={confirmLift}
        onCancel={() => setLifting(null)}
      />
    </>
  );
}
