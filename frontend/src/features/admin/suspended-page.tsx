import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Avatar } from '../../components/avatar';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { MoreOf } from '../../components/load-more-button';
import { RelativeTime } from '../../components/relative-time';
import { PageSpinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { refusalOf } from './api';
import { LoadError } from './components/load-error';
import { PageHeader } from './components/page-header';
import {
  SUSPENSION_WORDS,
  suspensionErrorMessage,
  suspensionQueries,
  useLiftSuspension,
  type SuspensionJson,
} from './suspensions-api';
import { AdminRefused } from './admin-access-required';
import { useLeaveWhenRefused } from './use-leave-when-refused';
import styles from './suspended-page.module.css';

export const SUSPENDED_WORDS = {
  heading: 'Suspended accounts',
  lead: 'They cannot sign in, and their posts and comments are hidden until the suspension is lifted.',
} as const;

function SuspensionRow({ suspension, onLift }: { suspension: SuspensionJson; onLift: () => void }) {
  const { user } = suspension;
  return (
    <li className={styles.row}>
      <Avatar src={user.avatar_url} name="" size={44} className={styles.avatar} />
      <div className={styles.text}>
        <p className={styles.who}>
          <span className={styles.name}>{user.name}</span>{' '}
          <Link to={`/user/${encodeURIComponent(user.id)}`} className={styles.login}>
            @{user.login}
          </Link>
        </p>
        <p className={styles.reason}>{suspension.reason}</p>
        <p className={styles.meta}>
          Suspended by @{suspension.admin_login} · <RelativeTime time={suspension.suspended_at} />
        </p>
      </div>
      <button type="button" className={`btn btn-secondary ${styles.lift}`} onClick={onLift} aria-haspopup="dialog">
        {SUSPENSION_WORDS.lift}
      </button>
    </li>
  );
}

/**
 * /admin/s (beyond the spec): the suspended accounts, the latest first, 20 at a time with 'Load
 * More', each with its reason, who suspended it and when, and 'Lift suspension' (asked first).
 */
export function SuspendedPage() {
  usePageTitle('Suspended accounts');
  const viewerId = useViewer()?.id;
  const list = useInfiniteQuery(suspensionQueries.list(viewerId));
  const lift = useLiftSuspension();
  const toast = useToast();
  const [lifting, setLifting] = useState<SuspensionJson | null>(null);
  const refusal = useLeaveWhenRefused(list.error ?? lift.error);

  if (refusal) return <AdminRefused refusal={refusal} />;

  const suspensions = list.data?.pages.flat() ?? [];

  function confirmLift() {
    if (!lifting) return;
    const { user } = lifting;
    lift.mutate(user.id, {
      onSuccess: () => {
        setLifting(null);
        toast.show(`${SUSPENSION_WORDS.lifted}: @${user.login}`);
      },
      onError: (error) => {
        setLifting(null);
        if (!refusalOf(error)) toast.show(suspensionErrorMessage(error, SUSPENSION_WORDS.liftFailed));
      },
    });
  }

  return (
    <>
      <PageHeader title={SUSPENDED_WORDS.heading} lead={SUSPENDED_WORDS.lead} />
      {list.isPending ? (
        <PageSpinner label="Loading suspensions" />
      ) : list.isError && !list.data ? (
        <LoadError
          message={SUSPENSION_WORDS.loadFailed}
          busy={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      ) : suspensions.length === 0 ? (
        <p className={styles.empty}>{SUSPENSION_WORDS.none}</p>
      ) : (
        <>
          <ul className={`card ${styles.list}`} aria-label={SUSPENDED_WORDS.heading}>
            {suspensions.map((s) => (
              <SuspensionRow key={s.id} suspension={s} onLift={() => setLifting(s)} />
            ))}
          </ul>
          <MoreOf query={list} className={styles.more} />
        </>
      )}
      <ConfirmDialog
        open={lifting !== null}
        title={`Lift @${lifting?.user.login ?? ''}'s suspension?`}
        message="They can sign in again, and their posts and comments show again."
        confirmLabel="Lift"
        busyLabel={SUSPENSION_WORDS.lifting}
        busy={lift.isPending}
        onConfirm={confirmLift}
        onCancel={() => setLifting(null)}
      />
    </>
  );
}
