import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { RelativeTime } from '../../../components/relative-time';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast';
import { useViewer } from '../../../lib/session';
import type { PersonJson } from '../api';
import {
  SUSPENSION_WORDS,
  suspensionErrorMessage,
  suspensionQueries,
  useLiftSuspension,
  useSuspend,
} from '../suspensions-api';
import { SuspendDialog } from './suspend-dialog';
import styles from './suspension-control.module.css';

interface SuspensionControlProps {
  /** The author of what was reported. */
  person: PersonJson;
  /** The complaint it is shown with: a suspension made here is listed in its history. */
  reportId?: string;
}

/**
 * Whether the author of a reported post is suspended, with 'Suspend author' (which asks for a
 * reason in a dialog of its own) or 'Lift suspension'. Admins cannot be suspended: the server
 * says so, and the words show here.
 */
export function SuspensionControl({ person, reportId }: SuspensionControlProps) {
  const viewerId = useViewer()?.id;
  const state = useQuery(suspensionQueries.state(viewerId, person.id));
  const suspend = useSuspend();
  const lift = useLiftSuspension();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const suspension = state.data?.suspended ? state.data.suspension : null;

  function onSuspend(reason: string) {
    setFailure(null);
    suspend.mutate(
      { userId: person.id, reason, reportId },
      {
        onSuccess: () => {
          setAsking(false);
          toast.show(`${SUSPENSION_WORDS.suspended}: @${person.login}`);
        },
        onError: (error) => setFailure(suspensionErrorMessage(error, SUSPENSION_WORDS.suspendFailed)),
      },
    );
  }

  function onLift() {
    setFailure(null);
    lift.mutate(person.id, {
      onSuccess: () => toast.show(`${SUSPENSION_WORDS.lifted}: @${person.login}`),
      onError: (error) => setFailure(suspensionErrorMessage(error, SUSPENSION_WORDS.liftFailed)),
    });
  }

  return (
    <div className={styles.control}>
      {state.isPending ? (
        <p className={styles.state}>
          <Spinner size="sm" label="Checking the author's account" />
        </p>
      ) : state.isError ? (
        <p className={styles.state}>Could not check whether @{person.login} is suspended.</p>
      ) : suspension ? (
        <p className={styles.state}>
          <span className={styles.badge}>Suspended</span> by @{suspension.admin_login} ·{' '}
          <RelativeTime time={suspension.suspended_at} />
          <q className={styles.reason}>{suspension.reason}</q>
        </p>
      ) : (
        <p className={styles.state}>@{person.login} can sign in and post.</p>
      )}
      {failure && !asking ? (
        <Alert tone="error" onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      {state.isSuccess ? (
        suspension ? (
          <button type="button" className="btn btn-secondary" onClick={onLift} disabled={lift.isPending}>
            {lift.isPending ? <Spinner size="sm" label="" /> : null}
            {lift.isPending ? SUSPENSION_WORDS.lifting : SUSPENSION_WORDS.lift}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-danger-outline"
            onClick={() => {
              setFailure(null);
              setAsking(true);
            }}
            aria-haspopup="dialog"
          >
            {SUSPENSION_WORDS.suspend}
          </button>
        )
      ) : null}
      {asking ? (
        <SuspendDialog
          login={person.login}
          busy={suspend.isPending}
          failure={failure}
          onSuspend={onSuspend}
          onCancel={() => {
            setAsking(false);
            setFailure(null);
          }}
        />
      ) : null}
    </div>
  );
}
