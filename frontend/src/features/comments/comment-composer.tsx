import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { Avatar } from '../../components/avatar';
import { Spinner } from '../../components/spinner';
import { useViewer } from '../../lib/session';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import {
  COMMENT_MAX_CHARS,
  COMMENT_MESSAGES,
  MENTION_DEBOUNCE_MS,
  commentErrorMessage,
  mentionQueries,
  useAddComment,
  type CommentAddedHandler,
} from './api';
import type { MentionUserJson } from './types';
import styles from './comments.module.css';

/** The input grows with its text up to this height, then scrolls (spec §9). */
export const COMMENT_INPUT_MAX_HEIGHT = 120;

/** The mention being typed at the caret: where its `@` is and what follows it. */
export interface MentionToken {
  start: number;
  query: string;
}

/**
 * Spec §5: an `@` at the start or after whitespace, followed by non-space text up to the caret,
 * is a mention being typed; the picker searches once at least one character follows the `@`.
 */
export function mentionAt(text: string, caret: number): MentionToken | null {
  const match = /(^|\s)@(\S+)$/.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** The text with the mention at `token` replaced by `@login ` and where the caret goes next. */
export function insertMention(text: string, token: MentionToken, caret: number, login: string) {
  const after = text.slice(caret);
  const inserted = `@${login}${after.startsWith(' ') ? '' : ' '}`;
  const next = text.slice(0, token.start) + inserted + after;
  const nextCaret = token.start + inserted.length + (after.startsWith(' ') ? 1 : 0);
  return { text: next, caret: nextCaret };
}

/**
 * Writing a comment (spec §2 Post page, §4 Comment posting, §5 Mentions): a text box that grows
 * up to 120 px, Publish ('Publishing...' while it goes; off for blank text), Enter sends and
 * Shift+Enter starts a new line. Typing `@` and a few letters opens the mention picker: Up/Down
 * choose, Enter or Tab insert `@login `, Escape closes.
 *
 * The box is a plain <textarea>: whatever is pasted arrives as plain text.
 */
interface CommentComposerProps {
  postId: string;
  /** What else a published comment changes (the post page counts it on the post). */
  onAdded?: CommentAddedHandler;
}

export function CommentComposer({ postId, onAdded }: CommentComposerProps) {
  const viewer = useViewer();
  const ids = useId();
  const inputId = `${ids}-input`;
  const listboxId = `${ids}-mentions`;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const sending = useRef(false);

  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // Escape closes the picker for the mention it was open for; typing another one opens it again.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);

  const add = useAddComment(postId, onAdded);

  const token = mentionAt(text, caret);
  const query = useDebouncedValue(token?.query ?? '', MENTION_DEBOUNCE_MS);
  const wanted = token !== null && token.start !== dismissedAt;
  const search = useQuery({
    ...mentionQueries.search(query, viewer?.id ?? null),
    enabled: wanted && query.length > 0,
    placeholderData: keepPreviousData,
  });
  const people: MentionUserJson[] = wanted && query.length > 0 ? (search.data ?? []) : [];
  const open = people.length > 0;
  const activeIndex = Math.min(active, Math.max(0, people.length - 1));
  const optionId = (index: number) => `${ids}-mention-${index}`;

  // Grow with the text up to the limit (CSSOM: allowed by the page's style-src 'self').
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, COMMENT_INPUT_MAX_HEIGHT)}px`;
    if (pendingCaret.current !== null) {
      input.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  }, [text]);

  const blank = text.trim() === '';
  const pending = add.isPending;

  function update(value: string, at: number) {
    setText(value);
    setCaret(at);
    setActive(0);
  }

  function pick(person: MentionUserJson) {
    if (!token) return;
    const next = insertMention(text, token, caret, person.login);
    pendingCaret.current = next.caret;
    update(next.text, next.caret);
    setDismissedAt(null);
    inputRef.current?.focus();
  }

  function submit() {
    const content = text.trim();
    // A second Enter or click while one is on its way does nothing (spec §4).
    if (content === '' || sending.current) return;
    sending.current = true;
    setError(null);
    add.mutate(content, {
      onSuccess: () => {
        update('', 0);
        setDismissedAt(null);
      },
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

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return;
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + people.length) % people.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        const person = people[activeIndex];
        if (person) {
          event.preventDefault();
          pick(person);
          return;
        }
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedAt(token?.start ?? null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <div className={styles.composerWrap}>
      <form className={styles.composer} onSubmit={onSubmit} aria-busy={pending}>
        <Avatar src={viewer?.avatar_url} name="" size={36} className={styles.composerAvatar} />
        <div className={styles.field}>
          <label htmlFor={inputId} className="visually-hidden">
            Write a comment
          </label>
          <textarea
            ref={inputRef}
            id={inputId}
            className={`input ${styles.input}`}
            rows={1}
            placeholder={COMMENT_MESSAGES.placeholder}
            value={text}
            maxLength={COMMENT_MAX_CHARS}
            // What is being published stays as sent until the server answers.
            readOnly={pending}
            aria-autocomplete="list"
            aria-haspopup="listbox"
            aria-controls={open ? listboxId : undefined}
            aria-activedescendant={open ? optionId(activeIndex) : undefined}
            onChange={(event) => update(event.target.value, event.target.selectionStart)}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            onBlur={() => setDismissedAt(token?.start ?? null)}
            onFocus={() => setDismissedAt(null)}
          />
          {open ? (
            <ul id={listboxId} role="listbox" aria-label="People to mention" className={styles.mentions}>
              {people.map((person, index) => (
                <li
                  key={person.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === activeIndex}
                  className={styles.mentionOption}
                  // Keep the focus (and the caret) in the text box.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => pick(person)}
                >
                  <Avatar src={person.avatar_url} name="" size={32} />
                  <span className={styles.mentionText}>
                    <span className={styles.mentionName}>{person.name || person.login}</span>
                    <span className={styles.mentionLogin}>@{person.login}</span>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <span className="visually-hidden" role="status">
            {open ? `${people.length} ${people.length === 1 ? 'person' : 'people'} found, use up and down to choose` : ''}
          </span>
        </div>
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
