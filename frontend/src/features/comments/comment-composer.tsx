import { useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Avatar } from '../../components/avatar';
import { Spinner } from '../../components/spinner';
import { useViewer } from '../../lib/session';
import { COMMENT_MESSAGES, commentErrorMessage, useAddComment, type CommentAddedHandler } from './api';
import { MentionTextarea } from './mention-textarea';
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
}

export function CommentComposer({ postId, onAdded }: CommentComposerProps) {
  const viewer = useViewer();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const sending = useRef(false);
  const add = useAddComment(postId, onAdded);

  const blank = text.trim() === '';
  const pending = add.isPending;

  function submit() {
    const content = text.trim();
    // A second Enter or click while one is on its way does nothing (spec §4).
    if (content === '' || sending.current) return;
    sending.current = true;
    setError(null);
    add.mutate(content, {
      onSuccess: () => setText(''),
      onError: (failure) => setError(commentErrorMessage(failure)),
      onSettled: () => {
        sending.current = false;
      },
    });
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
          onChange={setText}
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
