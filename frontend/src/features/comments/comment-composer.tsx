import { useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Avatar } from '../../components/avatar';
import { Spinner } from '../../components/spinner';
import { useViewer } from '../../lib/session';
import { COMMENT_MESSAGES, commentErrorMessage, useAddComment, type CommentAddedHandler } from './api';
import { MentionTextarea } from './mention-textarea';
import { BAR_WORDS, MOMENT_WORDS, momentText } from './moment-words';
import type { CommentMoment, MomentLink } from './types';
import styles from './comments.module.css';

/**
 * Writing a comment (spec §2 Post page, §4 Comment posting, §5 Mentions): the text box with the
 * mention picker (`MentionTextarea`), Publish ('Publishing...' while it goes; off for blank
 * text); Enter sends and Shift+Enter starts a new line.
 */
interface CommentComposerProps {
  postId: string;
  /** What else a published comment changes (the post page counts it on the post). */
  onAdded?: CommentAddedHandler;
  /** An audio post's player: a comment may be on the moment it is at. */
  moments?: MomentLink;
}

/**
 * On an audio post, starting to write takes the moment the player is at in the post's track (a
 * chip 'at 1:23', removable); 'Add the time' takes it later, or again.
 */
export function CommentComposer({ postId, onAdded, moments }: CommentComposerProps) {
  const viewer = useViewer();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [moment, setMoment] = useState<CommentMoment | null>(null);
  // Removed by its writer: the next comment may take one again, this one does not.
  const [momentRemoved, setMomentRemoved] = useState(false);
  const [momentHint, setMomentHint] = useState(false);
  const sending = useRef(false);
  // The text as last written or cleared: an Enter that comes after a comment went, before the
  // box is drawn empty again, must not send the old text a second time (a stale `text`).
  const written = useRef('');
  const add = useAddComment(postId, onAdded);

  function write(next: string) {
    if (moments && written.current === '' && next !== '' && moment === null && !momentRemoved) {
      setMoment(moments.current());
    }
    written.current = next;
    setText(next);
  }

  function takeMoment() {
    const now = moments?.current() ?? null;
    setMoment(now);
    setMomentHint(now === null);
    setMomentRemoved(false);
  }

  function removeMoment() {
    setMoment(null);
    setMomentRemoved(true);
  }

  const blank = text.trim() === '';
  const pending = add.isPending;
  const chipText = moment && moments ? momentText(moment, moments.trackTitle(moment.track)) : '';
  const words = moments?.kind === 'bars' ? BAR_WORDS : MOMENT_WORDS;

  function submit() {
    const content = written.current.trim();
    // A second Enter or click while one is on its way does nothing (spec §4).
    if (content === '' || sending.current) return;
    sending.current = true;
    setError(null);
    add.mutate(
      { content, moment },
      {
        onSuccess: () => {
          written.current = '';
          setText('');
          setMoment(null);
          setMomentRemoved(false);
          setMomentHint(false);
        },
        onError: (failure) => setError(commentErrorMessage(failure)),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit();
  }

  return (
    <div className={styles.composerWrap}>
      <form className={styles.composer} onSubmit={onSubmit} aria-busy={pending}>
        <Avatar src={viewer?.avatar_url} name="" size={36} className={styles.composerAvatar} />
        <MentionTextarea
          label="Write a comment"
          value={text}
          onChange={write}
          onSubmit={submit}
          placeholder={COMMENT_MESSAGES.placeholder}
          // What is being published stays as sent until the server answers.
          readOnly={pending}
        />
        <button type="submit" className={`btn btn-primary ${styles.publish}`} disabled={blank || pending}>
          {pending ? <Spinner size="sm" label="" /> : null}
          {pending ? COMMENT_MESSAGES.publishing : COMMENT_MESSAGES.publish}
        </button>
      </form>
      {moments ? (
        <div className={styles.momentRow}>
          {moment ? (
            <span className={styles.momentChip}>
              <span>{chipText}</span>
              <button
                type="button"
                className={styles.momentRemove}
                aria-label={words.remove(chipText)}
                onClick={removeMoment}
                disabled={pending}
              >
                ×
              </button>
            </span>
          ) : (
            <button type="button" className={styles.momentAdd} onClick={takeMoment} disabled={pending}>
              {words.add}
            </button>
          )}
          {momentHint && !moment ? (
            <span className={styles.momentHint} role="status">
              {words.playFirst}
            </span>
          ) : null}
        </div>
      ) : null}
      {pending ? (
        <p className={styles.posting} role="status">
          <Spinner size="sm" label="" />
          {COMMENT_MESSAGES.posting}
        </p>
      ) : null}
      {error ? (
        <Alert tone="error" onDismiss={() => setError(null)} className={styles.error}>
          {error}
        </Alert>
      ) : null}
    </div>
  );
}
