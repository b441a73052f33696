import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Spinner } from '../../components/spinner';
import { COMMENT_MESSAGES, commentErrorMessage, useEditComment, type CommentRemovedHandler } from './api';
import { MentionTextarea } from './mention-textarea';
import type { DisplayComment } from './types';
import styles from './comments.module.css';

export const COMMENT_EDIT_WORDS = {
  label: 'Edit your comment',
  hint: 'Enter saves, Shift+Enter starts a new line, Escape cancels.',
  save: 'Save',
  saving: 'Saving...',
  cancel: 'Cancel',
  edited: 'edited',
  editedAt: (when: string) => `Edited ${when}`,
} as const;

interface CommentEditorProps {
  postId: string;
  comment: DisplayComment;
  /** Saved, cancelled, or the comment turned out to be gone. */
  onDone: () => void;
  onRemoved?: CommentRemovedHandler;
}

/**
 * One's own comment, edited in place (issue 19): its text in the comment box with the mention
 * picker, Save and Cancel. Unchanged text closes without a call; people it newly mentions are
 * told by the server. A refusal is said under the box in the server's words, the text kept.
 */
export function CommentEditor({ postId, comment, onDone, onRemoved }: CommentEditorProps) {
  const ids = useId();
  const hintId = `${ids}-hint`;
  const errorId = `${ids}-error`;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(comment.content);
  const [error, setError] = useState<string | null>(null);
  const edit = useEditComment(postId, onRemoved);
  const pending = edit.isPending;
  const blank = text.trim() === '';

  // Into the box, the caret after the text.
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  function save() {
    const content = text.trim();
    if (content === '' || pending) return;
    if (content === comment.content) {
      onDone();
      return;
    }
    setError(null);
    edit.mutate(
      { commentId: comment.id, content },
      { onSuccess: onDone, onError: (failure) => setError(commentErrorMessage(failure, COMMENT_MESSAGES.editFailed)) },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save();
  }

  return (
    <form className={styles.editor} onSubmit={onSubmit} aria-busy={pending}>
      <MentionTextarea
        label={COMMENT_EDIT_WORDS.label}
        value={text}
        onChange={setText}
        onSubmit={save}
        onEscape={pending ? undefined : onDone}
        readOnly={pending}
        inputRef={inputRef}
        describedBy={error ? `${errorId} ${hintId}` : hintId}
        invalid={error !== null}
      />
      <p id={hintId} className={styles.editHint}>
        {COMMENT_EDIT_WORDS.hint}
      </p>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.editButtons}>
        <button type="button" className="btn btn-secondary" onClick={onDone} disabled={pending}>
          {COMMENT_EDIT_WORDS.cancel}
        </button>
        <button type="submit" className="btn btn-primary" disabled={blank || pending}>
          {pending ? <Spinner size="sm" label="" /> : null}
          {pending ? COMMENT_EDIT_WORDS.saving : COMMENT_EDIT_WORDS.save}
        </button>
      </div>
    </form>
  );
}
