import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronDownIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { RelativeTime } from '../../components/relative-time';
import { useToast } from '../../components/toast';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import {
  ADMIN_MESSAGES,
  adminQueries,
  complaintsErrorMessage,
  refusalOf,
  resolveErrorMessage,
  useResolveComplaint,
  type Complaint,
  type ResolveAction,
} from './api';
import { ComplaintDetails } from './components/complaint-details';
import { LoadError } from './components/load-error';
import { PageHeader } from './components/page-header';
import { StatusBadge } from './components/status-badge';
import { useLeaveWhenRefused } from './use-leave-when-refused';
import styles from './complaints-page.module.css';

export const COMPLAINTS_WORDS = {
  heading: 'User Complaints',
  viewDetails: 'View Details',
  resolved: 'Resolved',
} as const;

function ComplaintRow({ complaint, onOpen }: { complaint: Complaint; onOpen: () => void }) {
  const titleId = useId();
  const resolved = complaint.status !== 'pending';
  return (
    <li className={styles.row}>
      <div className={styles.rowText}>
        <p id={titleId} className={styles.rowTitle}>
          {complaint.title}
        </p>
        <p className={styles.rowData}>{complaint.data}</p>
        {/* The title names the reason and the data when it was filed; a decision shows here. */}
        {resolved ? (
          <p className={styles.rowMeta}>
            <StatusBadge status={complaint.status} />
            {complaint.resolvedAt ? <RelativeTime time={complaint.resolvedAt} /> : null}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className={`btn btn-secondary ${styles.view}`}
        onClick={onOpen}
        aria-haspopup="dialog"
        aria-describedby={titleId}
      >
        {COMPLAINTS_WORDS.viewDetails}
      </button>
    </li>
  );
}

/**
 * /admin/c (spec §2 Admin panel, §4 Complaint): 'User Complaints', the pending ones as rows with
 * their title and data and 'View Details', or 'No reports found'. Resolving one removes it from
 * the list and closes the dialog, with a toast in spec §8's words. Beyond the spec, the resolved
 * ones stay below in a collapsed 'Resolved' section, with their history.
 */
export function ComplaintsPage() {
  usePageTitle('Complaints');
  const viewerId = useViewer()?.id;
  const complaints = useQuery(adminQueries.complaints(viewerId));
  const resolve = useResolveComplaint(viewerId);
  const toast = useToast();
  const [openId, setOpenId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refusal = useLeaveWhenRefused(complaints.error ?? resolve.error);

  if (refusal) return <PageSpinner label={refusal} />;

  const list = complaints.data ?? [];
  const pending = list.filter((c) => c.status === 'pending');
  const resolved = list.filter((c) => c.status !== 'pending');
  const open = list.find((c) => c.id === openId) ?? null;
  const working = resolve.isPending && resolve.variables.complaint.id === openId ? resolve.variables.action : null;

  function show(id: string | null) {
    setFailure(null);
    setOpenId(id);
  }

  function onResolve(action: ResolveAction) {
    if (!open) return;
    setFailure(null);
    resolve.mutate(
      { complaint: open, action },
      {
        onSuccess: () => {
          toast.show(action === 'delete_post' ? ADMIN_MESSAGES.deleted : ADMIN_MESSAGES.ignored);
          setOpenId((current) => (current === open.id ? null : current));
        },
        onError: (error) => {
          // A refusal leaves for sign-in (useLeaveWhenRefused); anything else is said here.
          if (!refusalOf(error)) setFailure(resolveErrorMessage(error));
        },
      },
    );
  }

  return (
    <>
      <PageHeader
        title={COMPLAINTS_WORDS.heading}
        lead={
          pending.length > 0
            ? `${pending.length === 1 ? '1 complaint waits' : `${pending.length} complaints wait`} for a decision.`
            : null
        }
      />

      {complaints.isPending ? (
        <PageSpinner label="Loading reports" />
      ) : complaints.isError && !complaints.data ? (
        <LoadError
          message={complaintsErrorMessage(complaints.error)}
          busy={complaints.isFetching}
          onRetry={() => void complaints.refetch()}
        />
      ) : (
        <>
          {pending.length === 0 ? (
            <p className={styles.empty}>{ADMIN_MESSAGES.noReports}</p>
          ) : (
            <ul className={`card ${styles.list}`} aria-label="Pending complaints">
              {pending.map((c) => (
                <ComplaintRow key={c.id} complaint={c} onOpen={() => show(c.id)} />
              ))}
            </ul>
          )}

          {resolved.length > 0 ? (
            <details className={styles.resolved}>
              <summary>
                {COMPLAINTS_WORDS.resolved}
                <span className={styles.count}>({resolved.length})</span>
                <ChevronDownIcon size={20} className={styles.chevron} />
              </summary>
              <ul className={`card ${styles.list}`} aria-label="Resolved complaints">
                {resolved.map((c) => (
                  <ComplaintRow key={c.id} complaint={c} onOpen={() => show(c.id)} />
                ))}
              </ul>
            </details>
          ) : null}
        </>
      )}

      <ComplaintDetails
        complaint={open}
        onClose={() => show(null)}
        onResolve={onResolve}
        working={working}
        busy={resolve.isPending}
        failure={failure}
        onDismissFailure={() => setFailure(null)}
      />
    </>
  );
}
