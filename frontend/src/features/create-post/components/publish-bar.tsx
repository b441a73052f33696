import { Alert } from '../../../components/alert';
import { Spinner } from '../../../components/spinner';
import type { PostUpload } from '../use-post-upload';
import styles from './composer-form.module.css';

export const PUBLISH_WORDS = {
  publish: 'Publish',
  publishing: 'Publishing...',
  uploading: 'Uploading...',
  processing: 'Processing...',
  published: 'Post published',
  redirecting: 'Taking you to the feed...',
  done: 'Done',
} as const;

interface PublishBarProps {
  upload: PostUpload;
  /** The form's own rule that stops the post (spec §5), shown in the same banner. */
  ruleError: string | null;
  onDismissRuleError: () => void;
}

/**
 * The end of every create-post form: the error banner (dismissible), the success message, the
 * upload bar and the Publish button, which stays disabled while the post uploads and after it
 * is published.
 */
export function PublishBar({ upload, ruleError, onDismissRuleError }: PublishBarProps) {
  const { phase, percent, busy } = upload;
  const error = ruleError ?? upload.error;
  const label =
    phase === 'sending' ? PUBLISH_WORDS.uploading : phase === 'processing' ? PUBLISH_WORDS.processing : PUBLISH_WORDS.done;
  return (
    <div className={styles.publish}>
      {error ? (
        <Alert
          tone="error"
          onDismiss={() => {
            onDismissRuleError();
            upload.dismissError();
          }}
        >
          {error}
        </Alert>
      ) : null}
      {phase === 'done' ? (
        <Alert tone="success" title={PUBLISH_WORDS.published}>
          {PUBLISH_WORDS.redirecting}
        </Alert>
      ) : null}
      {phase !== 'idle' ? (
        <div className={styles.progress}>
          <div className={styles.progressRow} aria-hidden="true">
            <span>{label}</span>
            <span>{percent}%</span>
          </div>
          <div
            className={`${styles.track} ${phase === 'processing' ? styles.working : ''}`}
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${label} ${percent}%`}
          >
            <div className={styles.fill} style={{ transform: `scaleX(${percent / 100})` }} />
          </div>
        </div>
      ) : null}
      {/* aria-disabled rather than disabled: the button keeps keyboard focus while it works.
          The form ignores a submit while locked. */}
      <button type="submit" className={`btn btn-primary ${styles.submit}`} aria-disabled={busy || phase === 'done'}>
        {busy ? <Spinner size="sm" label="" /> : null}
        {busy ? PUBLISH_WORDS.publishing : PUBLISH_WORDS.publish}
      </button>
    </div>
  );
}
