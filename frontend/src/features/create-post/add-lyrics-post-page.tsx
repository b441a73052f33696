import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BinIcon, PlusIcon } from '../../components/first-load-icons';
import { ChevronDownIcon, ChevronUpIcon } from '../../components/icons';
import { TextField } from '../../components/text-field';
import { createLyricsPost } from './api';
import { CaptionField } from './components/caption-field';
import { ComposerFrame } from './components/composer-frame';
import { PublishBar } from './components/publish-bar';
import { focusFirstInvalid } from './focus-first-invalid';
import { usePostUpload } from './use-post-upload';
import {
  LABEL_MAX_LENGTH,
  LYRICS_MAX_PARTS,
  PART_LABELS,
  PART_TYPES,
  isPartType,
  lyricsGaps,
  lyricsPostProblem,
  moveItem,
} from './validation';
import styles from './components/composer-form.module.css';

/** Spec §4: after a lyrics post, home after 1.5 s. */
export const LYRICS_REDIRECT = { to: '/home', delayMs: 1500 } as const;

const REQUIRED = 'Required';

interface Part {
  id: number;
  /** One of PART_TYPES, or '' until chosen. */
  type: string;
  lyrics: string;
}

interface PartCardProps {
  part: Part;
  index: number;
  count: number;
  gaps: { type: boolean; lyrics: boolean } | null;
  onChange: (change: Partial<Part>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function PartCard({ part, index, count, gaps, onChange, onMove, onRemove }: PartCardProps) {
  const id = useId();
  const n = index + 1;
  return (
    <li className={styles.partCard} data-part={part.id}>
      <fieldset className={styles.fieldset}>
        <legend className="visually-hidden">Part {n}</legend>
        <div className={styles.partHead}>
          <span className={styles.partNumber} aria-hidden="true">
            {n}
          </span>
          <label className="visually-hidden" htmlFor={`${id}-type`}>
            Part {n} type
          </label>
          <select
            id={`${id}-type`}
            className={`input ${styles.partType}`}
            value={part.type}
            onChange={(event) => onChange({ type: event.target.value })}
            aria-invalid={gaps?.type ? true : undefined}
            aria-describedby={gaps?.type ? `${id}-type-error` : undefined}
            data-field="type"
          >
            <option value="" disabled>
              Select type
            </option>
            {PART_TYPES.map((type) => (
              <option key={type} value={type}>
                {PART_LABELS[type]}
              </option>
            ))}
          </select>
          <span className={styles.partActions}>
            <button
              type="button"
              className={styles.iconButton}
              aria-label={`Move part ${n} up`}
              onClick={() => onMove(index - 1)}
              disabled={index === 0}
              data-move="up"
            >
              <ChevronUpIcon size={18} />
            </button>
            <button
              type="button"
              className={styles.iconButton}
              aria-label={`Move part ${n} down`}
              onClick={() => onMove(index + 1)}
              disabled={index === count - 1}
              data-move="down"
            >
              <ChevronDownIcon size={18} />
            </button>
            <button
              type="button"
              className={styles.iconButton}
              aria-label={`Remove part ${n}`}
              onClick={onRemove}
              disabled={count === 1}
              data-move="remove"
            >
              <BinIcon size={18} />
            </button>
          </span>
        </div>
        {gaps?.type ? (
          <p id={`${id}-type-error`} className="field-error">
            Choose the kind of part
          </p>
        ) : null}
        <label className="visually-hidden" htmlFor={`${id}-lyrics`}>
          Part {n} lyrics
        </label>
        <textarea
          id={`${id}-lyrics`}
          className={`input ${styles.textarea} ${styles.lyrics}`}
          rows={5}
          placeholder="Write the words of this part"
          value={part.lyrics}
          onChange={(event) => onChange({ lyrics: event.target.value })}
          aria-invalid={gaps?.lyrics ? true : undefined}
          aria-describedby={gaps?.lyrics ? `${id}-lyrics-error` : undefined}
        />
        {gaps?.lyrics ? (
          <p id={`${id}-lyrics-error`} className="field-error">
            {REQUIRED}
          </p>
        ) : null}
      </fieldset>
    </li>
  );
}

/** /add-post-lyrics (spec §2, §3 Lyrics post, §5): a song, part by part. */
export function AddLyricsPostPage() {
  const upload = usePostUpload({ redirectTo: LYRICS_REDIRECT.to, redirectDelayMs: LYRICS_REDIRECT.delayMs });
  const nextId = useRef(1);
  const [songTitle, setSongTitle] = useState('');
  const [artistName, setArtistName] = useState('');
  const [parts, setParts] = useState<Part[]>([{ id: 0, type: '', lyrics: '' }]);
  const [caption, setCaption] = useState('');
  const [checked, setChecked] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** Where keyboard focus goes once the parts have moved: a part and which control. */
  const focusNext = useRef<{ partId: number; control: 'type' | 'up' | 'down' | 'remove' } | null>(null);

  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    const card = listRef.current?.querySelector(`[data-part="${next.partId}"]`);
    const wanted = card?.querySelector<HTMLElement>(
      next.control === 'type' ? '[data-field="type"]' : `[data-move="${next.control}"]`,
    );
    // A control that just became disabled (top, bottom, the only part) hands over to the type.
    const target = wanted && !wanted.matches(':disabled') ? wanted : card?.querySelector<HTMLElement>('[data-field="type"]');
    (target ?? addRef.current)?.focus();
  });

  const locked = upload.busy || upload.phase === 'done';
  const values = { songTitle, artistName, parts };
  const gaps = checked ? lyricsGaps(values) : null;
  const ruleError = checked ? lyricsPostProblem(values) : null;
  const dirty =
    songTitle.trim() !== '' ||
    artistName.trim() !== '' ||
    caption.trim() !== '' ||
    parts.some((p) => p.type !== '' || p.lyrics.trim() !== '');

  function changePart(id: number, change: Partial<Part>) {
    setParts((current) => current.map((p) => (p.id === id ? { ...p, ...change } : p)));
  }

  function addPart() {
    if (parts.length >= LYRICS_MAX_PARTS) return;
    const id = nextId.current++;
    focusNext.current = { partId: id, control: 'type' };
    setParts((current) => [...current, { id, type: '', lyrics: '' }]);
  }

  function movePart(index: number, to: number) {
    const part = parts[index];
    if (!part) return;
    focusNext.current = { partId: part.id, control: to < index ? 'up' : 'down' };
    setParts((current) => moveItem(current, index, to));
  }

  function removePart(index: number) {
    if (parts.length <= 1) return;
    const neighbour = parts[index + 1] ?? parts[index - 1];
    if (neighbour) focusNext.current = { partId: neighbour.id, control: 'remove' };
    setParts((current) => current.filter((_, i) => i !== index));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (locked) return;
    setChecked(true);
    if (lyricsPostProblem(values)) {
      focusFirstInvalid(formRef);
      return;
    }
    const body = {
      songTitle: songTitle.trim(),
      artistName: artistName.trim(),
      parts: parts.flatMap((p) => (isPartType(p.type) ? [{ type: p.type, lyrics: p.lyrics.trim() }] : [])),
      caption: caption.trim(),
    };
    upload.submit((options) => createLyricsPost(body, options));
  }

  return (
    <ComposerFrame kind="lyrics" leaving={upload.busy ? 'uploading' : dirty && !locked ? 'unsaved' : null}>
      <form ref={formRef} className={styles.form} noValidate onSubmit={onSubmit} aria-label="New lyrics post">
        <fieldset className={`${styles.fieldset} ${styles.songFields}`} disabled={locked}>
          <legend className="visually-hidden">Song</legend>
          <TextField
            label="Song title"
            value={songTitle}
            maxLength={LABEL_MAX_LENGTH}
            placeholder="What is the song called?"
            onChange={(event) => setSongTitle(event.target.value)}
            error={gaps?.songTitle ? REQUIRED : undefined}
          />
          <TextField
            label="Artist"
            value={artistName}
            maxLength={LABEL_MAX_LENGTH}
            placeholder="Who sings it?"
            onChange={(event) => setArtistName(event.target.value)}
            error={gaps?.artistName ? REQUIRED : undefined}
          />
        </fieldset>

        <section className={styles.section} aria-labelledby="lyrics-parts-title">
          <div className={styles.sectionHead}>
            <h2 className={styles.sectionTitle} id="lyrics-parts-title">
              Parts
            </h2>
            <span className={styles.count}>
              {parts.length}/{LYRICS_MAX_PARTS}
            </span>
          </div>
          <fieldset className={styles.fieldset} disabled={locked}>
            <legend className="visually-hidden">Parts of the song</legend>
            <ol ref={listRef} className={styles.partList}>
              {parts.map((part, index) => (
                <PartCard
                  key={part.id}
                  part={part}
                  index={index}
                  count={parts.length}
                  gaps={gaps?.parts[index] ?? null}
                  onChange={(change) => changePart(part.id, change)}
                  onMove={(to) => movePart(index, to)}
                  onRemove={() => removePart(index)}
                />
              ))}
            </ol>
            <button
              ref={addRef}
              type="button"
              className={`btn btn-secondary ${styles.addPart}`}
              onClick={addPart}
              disabled={parts.length >= LYRICS_MAX_PARTS}
            >
              <PlusIcon size={18} />
              Add part
            </button>
            {parts.length >= LYRICS_MAX_PARTS ? (
              <p className="field-hint">A song can have up to {LYRICS_MAX_PARTS} parts.</p>
            ) : null}
          </fieldset>
        </section>

        <CaptionField value={caption} onChange={setCaption} disabled={locked} />

        <PublishBar upload={upload} ruleError={ruleError} onDismissRuleError={() => setChecked(false)} />
      </form>
    </ComposerFrame>
  );
}
