import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Avatar } from '../../components/avatar';
import { useViewer } from '../../lib/session';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { COMMENT_MAX_CHARS, MENTION_DEBOUNCE_MS, mentionQueries } from './api';
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

interface MentionTextareaProps {
  /** Read out for the box (it shows no label of its own). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Enter without Shift, when the picker is closed. */
  onSubmit: () => void;
  /** Escape, when the picker is closed. */
  onEscape?: () => void;
  placeholder?: string;
  readOnly?: boolean;
  className?: string;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** Ids of what else describes the box (a hint, an error). */
  describedBy?: string;
  invalid?: boolean;
}

/**
 * A comment's text box with the mention picker (spec §5 Mentions), for a new comment and for
 * editing one: it grows up to 120 px, Enter sends and Shift+Enter starts a new line. Typing `@`
 * and a few letters opens the picker: Up/Down choose, Enter or Tab insert `@login `, Escape
 * closes it. A plain <textarea>: whatever is pasted arrives as plain text.
 */
export function MentionTextarea({
  label,
  value,
  onChange,
  onSubmit,
  onEscape,
  placeholder,
  readOnly,
  className,
  inputRef: givenRef,
  describedBy,
  invalid,
}: MentionTextareaProps) {
  const viewer = useViewer();
  const ids = useId();
  const inputId = `${ids}-input`;
  const listboxId = `${ids}-mentions`;
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const inputRef = givenRef ?? ownRef;
  const pendingCaret = useRef<number | null>(null);

  const [caret, setCaret] = useState(value.length);
  // Escape closes the picker for the mention it was open for; typing another one opens it again.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);

  const token = mentionAt(value, Math.min(caret, value.length));
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
  }, [value, inputRef]);

  function update(next: string, at: number) {
    onChange(next);
    setCaret(at);
    setActive(0);
  }

  function pick(person: MentionUserJson) {
    if (!token) return;
    const next = insertMention(value, token, caret, person.login);
    pendingCaret.current = next.caret;
    update(next.text, next.caret);
    setDismissedAt(null);
    inputRef.current?.focus();
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
    if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      onEscape();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      onSubmit();
    }
  }

  return (
    <div className={styles.field}>
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <textarea
        ref={inputRef}
        id={inputId}
        className={`input ${styles.input}${className ? ` ${className}` : ''}`}
        rows={1}
        placeholder={placeholder}
        value={value}
        maxLength={COMMENT_MAX_CHARS}
        readOnly={readOnly}
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-controls={open ? listboxId : undefined}
        aria-activedescendant={open ? optionId(activeIndex) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
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
  );
}
