import { useState } from 'react';
import { MusicIcon } from '../../components/first-load-icons';
import styles from './cover-art.module.css';

/**
 * A track's cover (decorative: the title is written beside it), or a gradient square with a
 * note when there is none or it does not load.
 */
export function CoverArt({ src, className }: { src: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const classes = [styles.cover, className].filter(Boolean).join(' ');
  if (!src || src === failed) {
    return (
      <span className={`${classes} ${styles.placeholder}`} aria-hidden="true" data-testid="cover-placeholder">
        <MusicIcon className={styles.note} />
      </span>
    );
  }
  return (
    <img
      className={classes}
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(src)}
    />
  );
}
