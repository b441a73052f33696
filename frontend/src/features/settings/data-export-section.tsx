import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { DownloadIcon } from '../../components/first-load-icons';
import { Spinner } from '../../components/spinner';
import { formatFileSize } from '../../lib/file-size';
import { ApiError } from '../../lib/http';
import { useViewer } from '../../lib/session';
import { dataExportQueries, stateOf, useRequestDataExport } from './data-export-api';
import styles from './data-export-section.module.css';

/** A date and time as the person reads them, in their own time zone. */
function when(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export const DATA_EXPORT_MESSAGES = {
  intro:
    'Download a copy of everything you have shared on SelfSound: your profile, your posts with their original files, ' +
    'comments, likes, reposts, playlists, listens, blocks and notifications, in one zip file.',
  how: 'We will e-mail you a link when it is ready. The link works for 7 days, and you can ask once a day.',
  request: 'Request my data',
  requesting: 'Requesting...',
  preparing: 'Preparing your archive. We will e-mail you a link when it is ready; you can leave this page.',
  ready: (size: string, until: string) =>
    `Your archive (${size}) is ready. We e-mailed you a link to download it; it works until ${until}.`,
  failed: 'We could not prepare your last archive. Please ask again.',
  next: (at: string) => `You can ask for a new archive after ${at}.`,
  loadFailed: 'Could not load your data settings. Please try again.',
  network: 'Network error. Please check your connection and try again.',
} as const;

/**
 * Settings → Your data (issue 36): ask for an archive of one's data; while it is prepared the
 * status is asked again every few seconds, then it says the link was e-mailed and until when it
 * works, and when another may be asked for (one a day). The file itself only ever goes to the
 * account's e-mail address (docs/security.md, "Your data").
 */
export function DataExportSection() {
  const viewer = useViewer();
  const status = useQuery({ ...dataExportQueries.status(viewer?.id), enabled: viewer != null });
  const ask = useRequestDataExport(viewer?.id);
  const [failure, setFailure] = useState<string | null>(null);
  const state = stateOf(status.data);
  const next = status.data?.next_request_at;
  // Against when the status was read: rendering stays pure, and a page left open is read again
  // when it is looked at again.
  const waiting = state !== 'failed' && next != null && new Date(next).getTime() > status.dataUpdatedAt;

  function onRequest() {
    setFailure(null);
    ask.mutate(undefined, {
      onError: (e) => {
        if (e instanceof ApiError && e.sessionExpired) return;
        setFailure(e instanceof ApiError ? (e.serverMessage ?? `HTTP ${e.status}`) : DATA_EXPORT_MESSAGES.network);
      },
    });
  }

  return (
    <section className={styles.section} aria-labelledby="data-export-title">
      <header className={styles.header}>
        <h2 id="data-export-title">Your data</h2>
        <p>{DATA_EXPORT_MESSAGES.intro}</p>
      </header>
      {status.isPending ? (
        <Spinner size="sm" label="Loading..." />
      ) : status.isError ? (
        <Alert tone="error">{DATA_EXPORT_MESSAGES.loadFailed}</Alert>
      ) : (
        <>
          {state === 'preparing' ? (
            <p className={styles.preparing} role="status">
              <Spinner size="sm" label="" />
              {DATA_EXPORT_MESSAGES.preparing}
            </p>
          ) : null}
          {state === 'ready' ? (
            <Alert tone="success" className={styles.alert}>
              {DATA_EXPORT_MESSAGES.ready(formatFileSize(status.data?.size_bytes ?? 0), when(status.data?.expires_at))}
            </Alert>
          ) : null}
          {state === 'failed' ? (
            <Alert tone="warning" className={styles.alert}>
              {DATA_EXPORT_MESSAGES.failed}
            </Alert>
          ) : null}
          {failure ? (
            <Alert tone="error" className={styles.alert}>
              {failure}
            </Alert>
          ) : null}
          <div className={styles.row}>
            <p className={styles.note}>
              {waiting && state !== 'preparing' ? DATA_EXPORT_MESSAGES.next(when(next)) : DATA_EXPORT_MESSAGES.how}
            </p>
            {state === 'preparing' ? null : (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={onRequest}
                disabled={ask.isPending || waiting}
              >
                {ask.isPending ? <Spinner size="sm" label="" /> : <DownloadIcon size={18} />}
                {ask.isPending ? DATA_EXPORT_MESSAGES.requesting : DATA_EXPORT_MESSAGES.request}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
