import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { UploadIcon } from '../../../components/icons';
import styles from './drop-zone.module.css';

interface DropZoneProps {
  /** The file input's accessible name ('Audio files'). */
  label: string;
  /** The `accept` of the file picker (dropped files are checked by the page's rules anyway). */
  accept: string;
  /** 'Drag audio files here'. */
  title: string;
  /** The limits, under the button ('Up to 10 files, 50MB each'). */
  hint: ReactNode;
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  /** A slimmer zone once some files are picked. */
  compact?: boolean;
  icon?: ReactNode;
}

/**
 * Where files come in: dragged and dropped, or picked with the button (the keyboard way). The
 * whole zone opens the picker on a click too.
 */
export function DropZone({ label, accept, title, hint, onFiles, disabled = false, compact = false, icon }: DropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them to know when the drag left.
  const depth = useRef(0);

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

  function onDragEnter(event: DragEvent) {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  }

  function onDragOver(event: DragEvent) {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  function onDragLeave() {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  }

  const open = () => {
    if (!disabled) inputRef.current?.click();
  };

  return (
    <div
      className={[styles.zone, compact ? styles.compact : '', dragging ? styles.dragging : '', disabled ? styles.disabled : '']
        .filter(Boolean)
        .join(' ')}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      onClick={(event) => {
        // The button opens the picker itself; anywhere else in the zone does the same.
        if (!(event.target instanceof HTMLElement && event.target.closest('button, input'))) open();
      }}
      data-dragging={dragging || undefined}
    >
      <span className={styles.icon} aria-hidden="true">
        {icon ?? <UploadIcon size={compact ? 20 : 26} />}
      </span>
      <div className={styles.text}>
        <p className={styles.title}>{dragging ? 'Drop to add' : title}</p>
        <p className={styles.hint} id={hintId}>
          {hint}
        </p>
      </div>
      <button
        type="button"
        className={`btn btn-secondary ${styles.button}`}
        onClick={open}
        disabled={disabled}
        aria-describedby={hintId}
        data-focus-fallback
      >
        {compact ? 'Add more' : 'Choose files'}
      </button>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={accept}
        aria-label={label}
        className="visually-hidden"
        tabIndex={-1}
        disabled={disabled}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file can be picked again after it was removed.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
