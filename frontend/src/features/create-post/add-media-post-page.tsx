import { useRef, useState, type FormEvent } from 'react';
import { BinIcon, PlayMarkIcon } from '../../components/first-load-icons';
import { ImageIcon } from '../../components/icons';
import { createMediaPost } from './api';
import { CaptionField } from './components/caption-field';
import { ComposerFrame } from './components/composer-frame';
import { DropZone } from './components/drop-zone';
import { FileProblems } from './components/file-problems';
import { PublishBar } from './components/publish-bar';
import { useObjectUrls } from './use-object-urls';
import { usePostUpload } from './use-post-upload';
import { useRemovalFocus } from './use-removal-focus';
import {
  MEDIA_MAX_FILES,
  MEDIA_MAX_TOTAL_BYTES,
  formatFileSize,
  mediaKind,
  mediaPostProblem,
  selectMediaFiles,
  type MediaKind,
} from './validation';
import styles from './components/composer-form.module.css';

/** Spec §4: after a media post, /home after 1.5 s. */
export const MEDIA_REDIRECT = { to: '/home', delayMs: 1500 } as const;

const ACCEPT = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/x-msvideo',
  'video/x-matroska',
  'video/webm',
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.webp',
  '.mp4',
  '.mov',
  '.avi',
  '.mkv',
  '.webm',
].join(',');

interface MediaEntry {
  id: number;
  file: File;
  kind: MediaKind;
  /** The preview's object URL. */
  url: string;
}

/** /add-post-media (spec §2, §5 Media post): pictures and videos with previews. */
export function AddMediaPostPage() {
  const upload = usePostUpload({ redirectTo: MEDIA_REDIRECT.to, redirectDelayMs: MEDIA_REDIRECT.delayMs });
  const previews = useObjectUrls();
  const [entries, setEntries] = useState<MediaEntry[]>([]);
  const [caption, setCaption] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [checked, setChecked] = useState(false);
  const nextId = useRef(0);
  const formRef = useRef<HTMLFormElement>(null);
  const removing = useRemovalFocus(formRef);

  const files = entries.map((e) => e.file);
  const locked = upload.busy || upload.phase === 'done';
  const ruleError = checked ? mediaPostProblem(files) : null;
  const dirty = entries.length > 0 || caption.trim() !== '';
  const full = entries.length >= MEDIA_MAX_FILES;
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);

  function addFiles(incoming: File[]) {
    const { accepted, problems: refused } = selectMediaFiles(files, incoming);
    setProblems(refused);
    const added: MediaEntry[] = accepted.map((file) => ({
      id: nextId.current++,
      file,
      // selectMediaFiles only accepts files of a known kind.
      kind: mediaKind(file) ?? 'image',
      url: previews.create(file),
    }));
    if (added.length > 0) setEntries((current) => [...current, ...added]);
  }

  function remove(index: number, entry: MediaEntry) {
    removing(index);
    previews.revoke(entry.url);
    setEntries((current) => current.filter((e) => e.id !== entry.id));
    setProblems([]);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (locked) return;
    setChecked(true);
    if (mediaPostProblem(files)) return;
    upload.submit((options) => createMediaPost(files, caption, options));
  }

  return (
    <ComposerFrame kind="media" leaving={upload.busy ? 'uploading' : dirty && !locked ? 'unsaved' : null}>
      <form ref={formRef} className={styles.form} noValidate onSubmit={onSubmit} aria-label="New media post">
        {entries.length > 0 ? (
          <section className={styles.section} aria-label="Selected files">
            <div className={styles.sectionHead}>
              <h2 className={styles.sectionTitle}>Photos and videos</h2>
              <span className={styles.count}>
                {entries.length}/{MEDIA_MAX_FILES} · {formatFileSize(totalBytes)} of {formatFileSize(MEDIA_MAX_TOTAL_BYTES)}
              </span>
            </div>
            <ul className={styles.mediaGrid}>
              {entries.map((entry, index) => (
                <li key={entry.id} className={styles.mediaTile}>
                  {entry.kind === 'image' ? (
                    <img src={entry.url} alt={entry.file.name} className={styles.mediaPreview} />
                  ) : (
                    // The first frame as a still (#t picks a moment Safari also paints).
                    <video
                      src={`${entry.url}#t=0.1`}
                      className={styles.mediaPreview}
                      muted
                      playsInline
                      preload="metadata"
                      aria-label={entry.file.name}
                    />
                  )}
                  {entry.kind === 'video' ? (
                    <>
                      <span className={styles.videoBadge}>Video</span>
                      <span className={styles.playMark} aria-hidden="true">
                        <PlayMarkIcon size={22} />
                      </span>
                    </>
                  ) : null}
                  <span className={styles.tileSize}>{formatFileSize(entry.file.size)}</span>
                  <button
                    type="button"
                    className={styles.tileRemove}
                    aria-label={`Remove ${entry.file.name}`}
                    onClick={() => remove(index, entry)}
                    disabled={locked}
                    data-remove
                  >
                    <BinIcon size={16} />
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <DropZone
          label="Photos and videos"
          accept={ACCEPT}
          title={entries.length > 0 ? 'Add more photos or videos' : 'Drag photos and videos here'}
          hint={
            full
              ? `${MEDIA_MAX_FILES} of ${MEDIA_MAX_FILES} files: that is the most a post can hold`
              : 'JPEG, PNG, GIF, WebP up to 10MB; MP4, MOV, AVI, MKV, WebM up to 100MB; 5 files, 200MB in all'
          }
          onFiles={addFiles}
          disabled={locked || full}
          compact={entries.length > 0}
          icon={entries.length > 0 ? undefined : <ImageIcon size={26} />}
        />
        <FileProblems problems={problems} onDismiss={() => setProblems([])} />

        <CaptionField value={caption} onChange={setCaption} disabled={locked} />

        <PublishBar upload={upload} ruleError={ruleError} onDismissRuleError={() => setChecked(false)} />
      </form>
    </ComposerFrame>
  );
}
