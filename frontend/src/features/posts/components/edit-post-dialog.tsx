import { useId, useRef, useState, type FormEvent } from 'react';
import { GenreField } from '../../../components/genre-field';
import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/http';
import {
  CAPTION_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  LYRICS_MAX_PARTS,
  PART_LABELS,
  PART_TYPES,
  isPartType,
} from '../../../lib/lyrics-parts';
import { useEditPost } from '../api';
import type { DisplayPost, PostEditJson } from '../types';
import styles from './edit-post-dialog.module.css';

export const EDIT_POST_WORDS = {
  title: 'Edit post',
  caption: 'Caption',
  optional: '(optional)',
  /** A track's or score's group, numbered when the post has several. */
  track: (n: number, of: number) => (of > 1 ? `Track ${n}` : 'Track'),
  score: (n: number, of: number) => (of > 1 ? `Score ${n}` : 'Score'),
  itemTitle: 'Title',
  artist: 'Artist',
  composer: 'Composer',
  songTitle: 'Song title',
  part: (n: number) => `Part ${n}`,
  partType: 'Part',
  lyrics: 'Lyrics',
  addPart: 'Add a part',
  remove: 'Remove',
  removePart: (n: number) => `Remove part ${n}`,
  filesStay: 'The files stay as they are; to change them, make a new post.',
  save: 'Save',
  saving: 'Saving...',
  cancel: 'Cancel',
  saved: 'Post updated.',
  failed: 'Failed to save post',
  blank: (what: string) => `${what} cannot be blank`,
  tooManyParts: `A song can have at most ${LYRICS_MAX_PARTS} parts`,
} as const;

/** What the form holds: every field the post's kind has, as text. */
interface Draft {
  caption: string;
  /** Audio: its genre, '' for none. */
  genre: string;
  /** Audio: title and artist; sheet music: title and composer (in `second`). */
  items: Array<{ title: string; second: string }>;
  songTitle: string;
  artist: string;
  parts: Array<{ key: number; type: string; lyrics: string }>;
}

function draftOf(post: DisplayPost): Draft {
  const draft: Draft = { caption: post.caption ?? '', genre: '', items: [], songTitle: '', artist: '', parts: [] };
  if (post.type === 'audio') {
    draft.items = post.content.map((t) => ({ title: t.title, second: t.artist }));
    draft.genre = post.genre ?? '';
  }
  if (post.type === 'musicxml') draft.items = post.content.map((s) => ({ title: s.fileName, second: s.composer }));
  if (post.type === 'lyrics') {
    draft.songTitle = post.content.title;
    draft.artist = post.content.artist;
    draft.parts = post.content.parts.map((p, key) => ({ key, type: p.type ?? '', lyrics: p.lyrics }));
  }
  return draft;
}

/** The field names the form marks, as `kind:index` (e.g. `title:2`, `lyrics:0`, `songTitle`). */
type Problems = Record<string, string>;

function check(post: DisplayPost, draft: Draft): Problems {
  const problems: Problems = {};
  const second = post.type === 'audio' ? EDIT_POST_WORDS.artist : EDIT_POST_WORDS.composer;
  draft.items.forEach((item, i) => {
    if (!item.title.trim()) problems[`title:${i}`] = EDIT_POST_WORDS.blank(EDIT_POST_WORDS.itemTitle);
    if (!item.second.trim()) problems[`second:${i}`] = EDIT_POST_WORDS.blank(second);
  });
  if (post.type === 'lyrics') {
    if (!draft.songTitle.trim()) problems.songTitle = EDIT_POST_WORDS.blank(EDIT_POST_WORDS.songTitle);
    if (!draft.artist.trim()) problems.artist = EDIT_POST_WORDS.blank(EDIT_POST_WORDS.artist);
    draft.parts.forEach((part, i) => {
      if (!part.lyrics.trim()) problems[`lyrics:${i}`] = EDIT_POST_WORDS.blank(EDIT_POST_WORDS.lyrics);
    });
  }
  return problems;
}

/** Only what changed is sent: an unchanged form sends nothing. */
function changes(post: DisplayPost, before: Draft, draft: Draft): PostEditJson {
  const edit: PostEditJson = {};
  if (draft.caption.trim() !== before.caption.trim()) edit.caption = draft.caption.trim() === '' ? null : draft.caption.trim();
  if (post.type === 'audio' && draft.genre !== before.genre) edit.genre = draft.genre === '' ? null : draft.genre;
  const titles = draft.items.map((i) => i.title.trim());
  const seconds = draft.items.map((i) => i.second.trim());
  if (titles.some((t, i) => t !== before.items[i]?.title)) edit.titles = titles;
  if (seconds.some((s, i) => s !== before.items[i]?.second)) {
    if (post.type === 'audio') edit.artists = seconds;
    else edit.composers = seconds;
  }
  if (post.type === 'lyrics') {
    if (draft.songTitle.trim() !== before.songTitle) edit.songTitle = draft.songTitle.trim();
    if (draft.artist.trim() !== before.artist) edit.artistName = draft.artist.trim();
    const parts = draft.parts.map((p) => ({ type: p.type, lyrics: p.lyrics.trim() }));
    const same =
      parts.length === before.parts.length &&
      parts.every((p, i) => p.type === before.parts[i]?.type && p.lyrics === before.parts[i]?.lyrics.trim());
    if (!same) edit.parts = parts;
  }
  return edit;
}

interface EditPostDialogProps {
  post: DisplayPost;
  onClose: () => void;
  /** After the server took the edit. */
  onSaved: () => void;
}

/**
 * Editing one's own post (issue 19): its caption, and by kind the titles and artists of its
 * tracks, the titles and composers of its scores, or the song's title, artist and parts. Files
 * are not changed. A blank field is marked where it is, with the focus moved to it; what the
 * server refuses is said once, above the buttons.
 */
export function EditPostDialog({ post, onClose, onSaved }: EditPostDialogProps) {
  const edit = useEditPost(post.id);
  const busy = edit.isPending;
  return (
    <Modal open onClose={busy ? () => {} : onClose} title={EDIT_POST_WORDS.title}>
      <EditPostForm post={post} onClose={onClose} onSaved={onSaved} edit={edit} />
    </Modal>
  );
}

function EditPostForm({
  post,
  onClose,
  onSaved,
  edit,
}: EditPostDialogProps & { edit: ReturnType<typeof useEditPost> }) {
  const ids = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [before] = useState(() => draftOf(post));
  const [draft, setDraft] = useState(before);
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const nextKey = useRef(before.parts.length);
  const busy = edit.isPending;
  const problems = submitted ? check(post, draft) : {};

  function change(next: Partial<Draft>) {
    setDraft((current) => ({ ...current, ...next }));
    setFailure(null);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (Object.keys(check(post, draft)).length > 0) {
      // The first marked field takes the focus (after this render marks it).
      window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const sent = changes(post, before, draft);
    if (Object.keys(sent).length === 0) {
      onClose();
      return;
    }
    edit.mutate(sent, {
      onSuccess: onSaved,
      onError: (error) => {
        const detail = error instanceof ApiError ? error.serverMessage : undefined;
        setFailure(detail ? `${EDIT_POST_WORDS.failed}: ${detail}` : EDIT_POST_WORDS.failed);
      },
    });
  }

  const itemWord = post.type === 'audio' ? EDIT_POST_WORDS.track : EDIT_POST_WORDS.score;
  const secondWord = post.type === 'audio' ? EDIT_POST_WORDS.artist : EDIT_POST_WORDS.composer;
  const captionLength = [...draft.caption].length;

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className={`form-stack ${styles.form}`} aria-label={EDIT_POST_WORDS.title}>
      {post.type === 'lyrics' ? (
        <>
          <TextField
            label={EDIT_POST_WORDS.songTitle}
            value={draft.songTitle}
            maxLength={LABEL_MAX_LENGTH}
            onChange={(e) => change({ songTitle: e.target.value })}
            error={problems.songTitle}
            disabled={busy}
          />
          <TextField
            label={EDIT_POST_WORDS.artist}
            value={draft.artist}
            maxLength={LABEL_MAX_LENGTH}
            onChange={(e) => change({ artist: e.target.value })}
            error={problems.artist}
            disabled={busy}
          />
          {draft.parts.map((part, i) => (
            <fieldset key={part.key} className={styles.group}>
              <legend className={styles.legend}>{EDIT_POST_WORDS.part(i + 1)}</legend>
              <div className={styles.partHead}>
                <label className="visually-hidden" htmlFor={`${ids}-type-${part.key}`}>
                  {EDIT_POST_WORDS.partType}
                </label>
                <select
                  id={`${ids}-type-${part.key}`}
                  className={`input ${styles.select}`}
                  value={isPartType(part.type) ? part.type : 'verse'}
                  disabled={busy}
                  onChange={(e) =>
                    change({ parts: draft.parts.map((p) => (p.key === part.key ? { ...p, type: e.target.value } : p)) })
                  }
                >
                  {PART_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {PART_LABELS[type]}
                    </option>
                  ))}
                </select>
                {draft.parts.length > 1 ? (
                  <button
                    type="button"
                    className="btn btn-ghost"
                    disabled={busy}
                    aria-label={EDIT_POST_WORDS.removePart(i + 1)}
                    onClick={() => change({ parts: draft.parts.filter((p) => p.key !== part.key) })}
                  >
                    {EDIT_POST_WORDS.remove}
                  </button>
                ) : null}
              </div>
              <LyricsBox
                label={EDIT_POST_WORDS.lyrics}
                value={part.lyrics}
                error={problems[`lyrics:${i}`]}
                disabled={busy}
                onChange={(lyrics) => change({ parts: draft.parts.map((p) => (p.key === part.key ? { ...p, lyrics } : p)) })}
              />
            </fieldset>
          ))}
          {draft.parts.length < LYRICS_MAX_PARTS ? (
            <button
              type="button"
              className={`btn btn-secondary ${styles.addPart}`}
              disabled={busy}
              onClick={() => {
                const key = nextKey.current;
                nextKey.current += 1;
                change({ parts: [...draft.parts, { key, type: 'verse', lyrics: '' }] });
              }}
            >
              {EDIT_POST_WORDS.addPart}
            </button>
          ) : (
            <p className="field-hint">{EDIT_POST_WORDS.tooManyParts}</p>
          )}
        </>
      ) : null}

      {draft.items.map((item, i) => (
        <fieldset key={i} className={styles.group}>
          <legend className={styles.legend}>{itemWord(i + 1, draft.items.length)}</legend>
          <div className={styles.pair}>
            <TextField
              label={EDIT_POST_WORDS.itemTitle}
              value={item.title}
              maxLength={LABEL_MAX_LENGTH}
              onChange={(e) => change({ items: draft.items.map((it, j) => (j === i ? { ...it, title: e.target.value } : it)) })}
              error={problems[`title:${i}`]}
              disabled={busy}
            />
            <TextField
              label={secondWord}
              value={item.second}
              maxLength={LABEL_MAX_LENGTH}
              onChange={(e) => change({ items: draft.items.map((it, j) => (j === i ? { ...it, second: e.target.value } : it)) })}
              error={problems[`second:${i}`]}
              disabled={busy}
            />
          </div>
        </fieldset>
      ))}

      {post.type === 'audio' || post.type === 'musicxml' || post.type === 'media' ? (
        <p className="field-hint">{EDIT_POST_WORDS.filesStay}</p>
      ) : null}

      {post.type === 'audio' ? <GenreField value={draft.genre} onChange={(genre) => change({ genre })} disabled={busy} /> : null}

      <div className="field">
        <div className="field-row">
          <label className="field-label" htmlFor={`${ids}-caption`}>
            {EDIT_POST_WORDS.caption} <span className={styles.optional}>{EDIT_POST_WORDS.optional}</span>
          </label>
          <span className="field-hint" aria-hidden="true">
            {captionLength}/{CAPTION_MAX_LENGTH}
          </span>
        </div>
        <textarea
          id={`${ids}-caption`}
          className={`input ${styles.textarea}`}
          rows={3}
          maxLength={CAPTION_MAX_LENGTH}
          value={draft.caption}
          disabled={busy}
          onChange={(e) => change({ caption: e.target.value })}
        />
      </div>

      {failure ? <Alert tone="error">{failure}</Alert> : null}

      <div className="dialog-buttons">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          {EDIT_POST_WORDS.cancel}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? <Spinner size="sm" label="" /> : null}
          {busy ? EDIT_POST_WORDS.saving : EDIT_POST_WORDS.save}
        </button>
      </div>
    </form>
  );
}

/** A part's lyrics: a labelled text box with its error under it. */
function LyricsBox({
  label,
  value,
  error,
  disabled,
  onChange,
}: {
  label: string;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={`input ${styles.textarea}`}
        rows={4}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
