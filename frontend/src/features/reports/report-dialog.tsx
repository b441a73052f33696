import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Modal } from '../../components/modal';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import { useGoToSignIn } from '../../lib/session';
import {
  REPORT_REASONS,
  REPORT_WORDS,
  reportBody,
  reportErrorMessage,
  reportWords,
  useReport,
  type ReportReason,
  type ReportTarget,
} from './api';
import styles from './report-dialog.module.css';

/** The most characters a report's text may have (the server's limit). */
export const REPORT_TEXT_MAX = 1000;

interface ReportDialogProps {
  /** The post or comment reported. */
  target: ReportTarget;
  onClose: () => void;
}

/**
 * The Report dialog (spec §4, §5, §8) of a post or a comment: one of four reasons, a text for
 * Other, then POST /reports/post (or /reports/comment). It starts with no reason chosen each time it opens (the menu mounts it afresh);
 * a choice that is not valid says so inside the dialog. Success closes it with a thank-you
 * toast; a failure stays in the dialog so the report can be sent again; a session that ended
 * closes it with a way to sign in. A click on the backdrop closes it, except while sending.
 */
export function ReportDialog({ target, onClose }: ReportDialogProps) {
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const report = useReport();
  const words = reportWords(target);
  const groupName = useId();
  const textId = useId();
  const problemId = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const sending = report.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const body = reportBody(target, reason, text);
    if (!body) {
      setProblem(REPORT_WORDS.noReason);
      return;
    }
    setProblem(null);
    report.mutate(body, {
      onSuccess: () => {
        toasts.show(REPORT_WORDS.submitted);
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) {
          onClose();
          toasts.show(<SignInPrompt text={SESSION_EXPIRED_MESSAGE} onSignIn={() => goToSignIn()} />);
          return;
        }
        setProblem(reportErrorMessage(error));
      },
    });
  }

  return (
    <Modal
      open
      title={words.title}
      description={words.description}
      onClose={sending ? () => {} : onClose}
    >
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-describedby={problem ? problemId : undefined}>
        <fieldset className={styles.reasons}>
          <legend className="visually-hidden">Reason</legend>
          {REPORT_REASONS.map((option) => (
            <label key={option} className="choice">
              <input
                type="radio"
                name={groupName}
                value={option}
                checked={reason === option}
                onChange={() => {
                  setReason(option);
                  setProblem(null);
                }}
                disabled={sending}
              />
              <span>{option}</span>
            </label>
          ))}
        </fieldset>
        {reason === 'Other' ? (
          <div className="field">
            <label htmlFor={textId} className="field-label">
              {REPORT_WORDS.otherLabel}
            </label>
            <textarea
              id={textId}
              className={`input ${styles.text}`}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setProblem(null);
              }}
              placeholder={words.otherPlaceholder}
              maxLength={REPORT_TEXT_MAX}
              rows={3}
              disabled={sending}
              aria-invalid={problem === REPORT_WORDS.noReason || undefined}
            />
          </div>
        ) : null}
        {problem ? (
          <div id={problemId}>
            <Alert tone="error">{problem}</Alert>
          </div>
        ) : null}
        <div className="dialog-buttons">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={sending}>
            {REPORT_WORDS.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? <Spinner size="sm" label="" /> : null}
            {sending ? REPORT_WORDS.submitting : REPORT_WORDS.submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
