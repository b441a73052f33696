import { useId, useMemo, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ChevronDownIcon } from '../../components/icons';
import { LoadMoreButton, MoreOf } from '../../components/load-more-button';
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
  type ComplaintGroup,
  type ResolveAction,
} from './api';
import { ComplaintDetails } from './components/complaint-details';
import { PARTS_WORDS, reasonsText } from './components/complaint-parts';
import { LoadError } from './components/load-error';
import { PageHeader } from './components/page-header';
import { StatusBadge } from './components/status-badge';
import { AdminRefused } from './admin-access-required';
import { useLeaveWhenRefused } from './use-leave-when-refused';
import styles from './complaints-page.module.css';

export const COMPLAINTS_WORDS = {
  heading: 'User Complaints',
  viewDetails: 'View Details',
  resolved: 'Resolved',
  waiting: (items: number, more: boolean) =>
    `${items}${more ? '+' : ''} reported ${items === 1 && !more ? 'item waits' : 'items wait'} for a decision, the most reported first.`,
  lastReported: 'last',
} as const;

/**
 * The spec's `data` of a complaint, its time said as the rest of the panel says times: our
 * server's "Reported by Bob on 2026-11-24 10:31 UTC" reads "Reported by Bob · 16m ago", the
 * exact time in its tooltip (issue 34). Other words are shown as they came.
 */
function ComplaintData({ complaint }: { complaint: Complaint }) {
  const at = / on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/.exec(complaint.data);
  if (!at) return <>{complaint.data}</>;
  return (
    <>
      {complaint.data.slice(0, at.index)}
      <span aria-hidden="true"> · </span>
      <RelativeTime time={complaint.createdAt} />
    </>
  );
}

/** 'Comment by @bob on a lyrics post by @ana' from the server's 'comment by ...'. */
function sentence(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * One reported post or comment: how many complaints and why, the comment's text when it is
 * about one, and 'View Details'. A single complaint keeps the spec's title and data.
 */
function GroupRow({ group, onOpen }: { group: ComplaintGroup; onOpen: () => void }) {
  const titleId = useId();
  const only = group.count === 1 ? group.complaints[0] : undefined;
  return (
    <li className={styles.row}>
      <span className={styles.badge} aria-hidden="true">
        {group.count}
      </span>
      <div className={styles.rowText}>
        <p id={titleId} className={styles.rowTitle}>
          {only ? only.title : sentence(group.title)}
        </p>
        {group.comment ? (
          group.comment.content !== null ? (
            <p className={styles.quote}>{group.comment.content}</p>
          ) : (
            <p className={styles.gone}>{PARTS_WORDS.commentGone}</p>
          )
        ) : null}
        {only ? (
          <p className={styles.rowData}>
            <ComplaintData complaint={only} />
          </p>
        ) : (
          <p className={styles.rowData}>
            <strong>{PARTS_WORDS.count(group.count)}</strong>
            <span aria-hidden="true"> · </span>
            <span>{reasonsText(group.reasons)}</span>
            <span aria-hidden="true"> · </span>
            <span>
              {COMPLAINTS_WORDS.lastReported} <RelativeTime time={group.lastReportedAt} />
            </span>
          </p>
        )}
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

/** A decided complaint: its title and data, its status and when. */
function ResolvedRow({ complaint, onOpen }: { complaint: Complaint; onOpen: () => void }) {
  const titleId = useId();
  return (
    <li className={styles.row}>
      <div className={styles.rowText}>
        <p id={titleId} className={styles.rowTitle}>
          {complaint.title}
        </p>
        <p className={styles.rowData}>
          <ComplaintData complaint={complaint} />
        </p>
        <p className={styles.rowMeta}>
          <StatusBadge status={complaint.status} />
          {complaint.resolvedAt ? <RelativeTime time={complaint.resolvedAt} /> : null}
        </p>
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

type Open = { kind: 'group'; key: string } | { kind: 'resolved'; id: string } | null;

/**
 * /admin/c (spec §2 Admin panel, §4 Complaint): 'User Complaints', the pending ones, or 'No
 * reports found'. Beyond the spec, pending complaints come one row per reported post or
 * comment, the most reported first, with how many and why (so many complaints about one thing,
 * or one account's many, cannot bury the rest), 10 rows at a time with 'Load More'. Deciding
 * removes the row and closes the dialog, with a toast in spec §8's words. The resolved ones stay
 * below in a collapsed 'Resolved' section, with their history, also paged.
 */
export function ComplaintsPage() {
  usePageTitle('Complaints');
  const viewerId = useViewer()?.id;
  const groups = useInfiniteQuery(adminQueries.groups(viewerId));
  const resolvedList = useInfiniteQuery(adminQueries.resolved(viewerId));
  const resolve = useResolveComplaint(viewerId);
  const toast = useToast();
  const [open, setOpen] = useState<Open>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refusal = useLeaveWhenRefused(groups.error ?? resolvedList.error ?? resolve.error);

  // A group can move between pages while they are fetched (a new complaint): each shows once.
  const pending = useMemo(() => {
    const seen = new Set<string>();
    return (groups.data?.pages ?? []).flat().filter((g) => !seen.has(g.key) && Boolean(seen.add(g.key)));
  }, [groups.data]);
  const resolved = useMemo(() => (resolvedList.data?.pages ?? []).flat(), [resolvedList.data]);

  if (refusal) return <AdminRefused refusal={refusal} />;

  const openGroup = open?.kind === 'group' ? (pending.find((g) => g.key === open.key) ?? null) : null;
  const openResolved = open?.kind === 'resolved' ? (resolved.find((c) => c.id === open.id) ?? null) : null;
  const shown = openGroup?.complaints[0] ?? openResolved;
  const working = resolve.isPending && shown && resolve.variables.complaint.id === shown.id ? resolve.variables.action : null;

  function show(next: Open) {
    setFailure(null);
    setOpen(next);
  }

  function onResolve(action: ResolveAction) {
    if (!shown) return;
    setFailure(null);
    const decided = open;
    resolve.mutate(
      { complaint: shown, action, scope: openGroup ? 'item' : 'report' },
      {
        onSuccess: () => {
          toast.show(action === 'ignore' ? ADMIN_MESSAGES.ignored : ADMIN_MESSAGES.deleted);
          setOpen((current) => (current === decided ? null : current));
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
        lead={pending.length > 0 ? COMPLAINTS_WORDS.waiting(pending.length, groups.hasNextPage) : null}
      />

      {groups.isPending ? (
        <PageSpinner label="Loading reports" />
      ) : groups.isError && !groups.data ? (
        <LoadError
          message={complaintsErrorMessage(groups.error)}
          busy={groups.isFetching}
          onRetry={() => void groups.refetch()}
        />
      ) : (
        <>
          {pending.length === 0 ? (
            <p className={styles.empty}>{ADMIN_MESSAGES.noReports}</p>
          ) : (
            <>
              <ul className={`card ${styles.list}`} aria-label="Pending complaints">
                {pending.map((g) => (
                  <GroupRow key={g.key} group={g} onOpen={() => show({ kind: 'group', key: g.key })} />
                ))}
              </ul>
              {groups.isFetchNextPageError ? (
                <p className={styles.pageError} role="alert">
                  {complaintsErrorMessage(groups.error)}
                </p>
              ) : null}
              <MoreOf query={groups} className={styles.more} />
            </>
          )}

          {resolved.length > 0 ? (
            <details className={styles.resolved}>
              <summary>
                {COMPLAINTS_WORDS.resolved}
                <span className={styles.count}>
                  ({resolved.length}
                  {resolvedList.hasNextPage ? '+' : ''})
                </span>
                <ChevronDownIcon size={20} className={styles.chevron} />
              </summary>
              <ul className={`card ${styles.list}`} aria-label="Resolved complaints">
                {resolved.map((c) => (
                  <ResolvedRow key={c.id} complaint={c} onOpen={() => show({ kind: 'resolved', id: c.id })} />
                ))}
              </ul>
              {resolvedList.hasNextPage ? (
                <div className={styles.more}>
                  <LoadMoreButton
                    loading={resolvedList.isFetchingNextPage}
                    onLoad={() => void resolvedList.fetchNextPage()}
                  />
                </div>
              ) : null}
            </details>
          ) : null}
        </>
      )}

      <ComplaintDetails
        complaint={shown}
        group={openGroup}
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
