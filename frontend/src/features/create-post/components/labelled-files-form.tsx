import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { BinIcon } from '../../../components/first-load-icons';
import { TextField } from '../../../components/text-field';
import type { SendOptions } from '../api';
import { usePostUpload } from '../use-post-upload';
import { focusFirstInvalid } from '../focus-first-invalid';
import { useRemovalFocus } from '../use-removal-focus';
import { LABEL_MAX_LENGTH, fileStem, formatFileSize, type Selection } from '../validation';
import { GenreField } from '../../../components/genre-field';
import { CaptionField } from './caption-field';
import { ComposerFrame, type ComposerKind } from './composer-frame';
import { DropZone } from './drop-zone';
import { FileProblems } from './file-problems';
import { PublishBar } from './publish-bar';
import styles from './composer-form.module.css';

/** A picked file with the words shown for it: a title, and an artist or a composer. */
export interface LabelledFile {
  file: File;
  title: string;
  credit: string;
}

/** What makes the audio form an audio form and the MusicXML form a MusicXML form. */
export interface LabelledFilesConfig {
  kind: Extract<ComposerKind, 'audio' | 'musicxml'>;
  fileIcon: ReactNode;
  /** The file input's name, its `accept`, the zone's title when empty and once files are in. */
  picker: { label: string; accept: string; title: string; moreTitle: string; hint: string };
  maxFiles: number;
  /** 'Artist' or 'Composer'. */
  creditLabel: string;
  /** What the credit field starts with: 'Unknown Artist', 'Unknown Composer'. */
  creditDefault: string;
  /** The title a file's name suggests (its name without the extension, unless told). */
  suggestTitle?: (fileName: string) => string;
  /** Says where the suggested fields come from. */
  suggestionHint: string;
  /**
   * What the file itself names (a score's title and composer): it replaces the suggestion of
   * a field not changed meanwhile, so the form shows what will be published.
   */
  readFile?: (file: File) => Promise<{ title: string | null; credit: string | null }>;
  select: (currentCount: number, files: readonly File[]) => Selection<File>;
  /** The spec's message that stops the post, or null. */
  problem: (files: ReadonlyArray<{ title: string; credit: string }>) => string | null;
  /** Whether the post may have a genre (audio, issue 31). */
  withGenre?: boolean;
  /** `genre`: '' for none. */
  send: (files: readonly LabelledFile[], caption: string, options: SendOptions, genre: string) => Promise<unknown>;
  redirectTo: string;
  redirectDelayMs: number;
}

interface Entry extends LabelledFile {
  id: number;
}

const REQUIRED = 'Required';

/**
 * The audio and MusicXML forms: files in (drop or pick, each checked), a card per file with its
 * title and artist or composer (prefilled with the spec's defaults), the caption, Publish.
 */
export function LabelledFilesForm({ config }: { config: LabelledFilesConfig }) {
  const upload = usePostUpload({ redirectTo: config.redirectTo, redirectDelayMs: config.redirectDelayMs });
  const [entries, setEntries] = useState<Entry[]>([]);
  const [caption, setCaption] = useState('');
  const [genre, setGenre] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  // After a refused Publish, the rule and the empty fields show until fixed (or dismissed).
  const [checked, setChecked] = useState(false);
  const nextId = useRef(0);
  const formRef = useRef<HTMLFormElement>(null);
  const removing = useRemovalFocus(formRef);

  const locked = upload.busy || upload.phase === 'done';
  const ruleError = checked ? config.problem(entries) : null;
  const dirty = entries.length > 0 || caption.trim() !== '';
  const full = entries.length >= config.maxFiles;

  function addFiles(files: File[]) {
    const { accepted, problems: refused } = config.select(entries.length, files);
    setProblems(refused);
    const added: Entry[] = accepted.map((file) => ({
      id: nextId.current++,
      file,
      title: (config.suggestTitle ?? fileStem)(file.name),
      credit: config.creditDefault,
    }));
    if (added.length > 0) setEntries((current) => [...current, ...added]);
    for (const entry of added) {
      void config.readFile?.(entry.file).then(({ title, credit }) =>
        setEntries((current) =>
          current.map((e) =>
            e.id === entry.id
              ? {
                  ...e,
                  title: title && e.title === entry.title ? title : e.title,
                  credit: credit && e.credit === entry.credit ? credit : e.credit,
                }
              : e,
          ),
        ),
      );
    }
  }

  function update(id: number, change: Partial<LabelledFile>) {
    setEntries((current) => current.map((e) => (e.id === id ? { ...e, ...change } : e)));
  }

  function remove(index: number, id: number) {
    removing(index);
    setEntries((current) => current.filter((e) => e.id !== id));
    setProblems([]);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (locked) return;
    setChecked(true);
    if (config.problem(entries)) {
      focusFirstInvalid(formRef);
      return;
    }
    upload.submit((options) => config.send(entries, caption, options, genre));
  }

  return (
    <ComposerFrame kind={config.kind} leaving={upload.busy ? 'uploading' : dirty && !locked ? 'unsaved' : null}>
      <form ref={formRef} className={styles.form} noValidate onSubmit={onSubmit} aria-label={`New ${config.kind === 'audio' ? 'audio' : 'MusicXML'} post`}>

        {entries.length > 0 ? (
          <section className={styles.section} aria-label="Selected files">
            <div className={styles.sectionHead}>
              <h2 className={styles.sectionTitle}>Files</h2>
              <span className={styles.count}>
                {entries.length}/{config.maxFiles}
              </span>
            </div>
            <ol className={styles.fileList}>
              {entries.map((entry, index) => {
                const blankTitle = checked && entry.title.trim() === '';
                const blankCredit = checked && entry.credit.trim() === '';
                return (
                  <li key={entry.id} className={styles.fileCard}>
                    <fieldset className={styles.fieldset} disabled={locked}>
                      <legend className="visually-hidden">{entry.file.name}</legend>
                      <div className={styles.fileHead}>
                        <span className={styles.fileIcon} aria-hidden="true">
                          {config.fileIcon}
                        </span>
                        <span className={styles.fileMeta}>
                          <span className={styles.fileName} title={entry.file.name}>
                            {entry.file.name}
                          </span>
                          <span className={styles.fileSize}>{formatFileSize(entry.file.size)}</span>
                        </span>
                        <button
                          type="button"
                          className={styles.iconButton}
                          aria-label={`Remove ${entry.file.name}`}
                          onClick={() => remove(index, entry.id)}
                          data-remove
                        >
                          <BinIcon size={18} />
                        </button>
                      </div>
                      <div className={styles.fieldsGrid}>
                        <TextField
                          label="Title"
                          value={entry.title}
                          maxLength={LABEL_MAX_LENGTH}
                          onChange={(event) => update(entry.id, { title: event.target.value })}
                          error={blankTitle ? REQUIRED : undefined}
                        />
                        <TextField
                          label={config.creditLabel}
                          value={entry.credit}
                          maxLength={LABEL_MAX_LENGTH}
                          onChange={(event) => update(entry.id, { credit: event.target.value })}
                          error={blankCredit ? REQUIRED : undefined}
                        />
                      </div>
                    </fieldset>
                  </li>
                );
              })}
            </ol>
            <p className="field-hint">{config.suggestionHint}</p>
          </section>
        ) : null}

        <DropZone
          label={config.picker.label}
          accept={config.picker.accept}
          title={entries.length > 0 ? config.picker.moreTitle : config.picker.title}
          hint={full ? `${entries.length} of ${config.maxFiles} files: that is the most a post can hold` : config.picker.hint}
          onFiles={addFiles}
          disabled={locked || full}
          compact={entries.length > 0}
          icon={entries.length > 0 ? undefined : config.fileIcon}
        />
        <FileProblems problems={problems} onDismiss={() => setProblems([])} />

        {config.withGenre ? <GenreField value={genre} onChange={setGenre} disabled={locked} /> : null}
        <CaptionField value={caption} onChange={setCaption} disabled={locked} />

        <PublishBar upload={upload} ruleError={ruleError} onDismissRuleError={() => setChecked(false)} />
      </form>
    </ComposerFrame>
  );
}
