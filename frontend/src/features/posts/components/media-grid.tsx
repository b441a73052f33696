import { lazy, Suspense, useState, type CSSProperties } from 'react';
import { PlayMarkIcon } from '../../../components/first-load-icons';
import type { MediaItem } from '../types';
import styles from './media-grid.module.css';

// The full-size viewer comes with the first click: most visits only scroll past pictures.
const MediaOverlay = lazy(async () => ({ default: (await import('./media-overlay')).MediaOverlay }));

/** How a lone item is framed: its own shape, between portrait 4:5 and wide 16:9. */
function frameOf(item: MediaItem): CSSProperties {
  const ratio = item.width && item.height ? item.width / item.height : item.type === 'video' ? 16 / 9 : 1;
  return { aspectRatio: String(Math.min(16 / 9, Math.max(4 / 5, ratio))) };
}

/**
 * How a picture of the grid loads: the first post's first one (`lead`) at once and first, as it
 * is likely the page's largest paint; every other when it comes near the window. Its size is
 * given, so the page does not move when it arrives.
 */
function pictureProps(item: MediaItem, lead: boolean) {
  return {
    alt: '',
    decoding: 'async',
    loading: lead ? 'eager' : 'lazy',
    fetchPriority: lead ? 'high' : 'auto',
    width: item.width ?? undefined,
    height: item.height ?? undefined,
    className: styles.media,
  } as const;
}

/** 'image 2 of 3', or 'image' when it is the only one. */
export function mediaLabel(item: MediaItem, index: number, total: number): string {
  return total > 1 ? `${item.type} ${index + 1} of ${total}` : item.type;
}

/**
 * The pictures and videos of a media post (spec §2 Post card): the feed-sized copy of each image,
 * a video's poster (or its first frame) with a play button, in a tidy grid. Clicking one opens
 * the full-size overlay on it, a video with controls playing. `first`: the first post of the
 * page (pictureProps).
 */
export function MediaGrid({ items, first = false }: { items: readonly MediaItem[]; first?: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  const shown = items.slice(0, 5);
  const single = shown.length === 1;

  return (
    <>
      <div className={`${styles.grid} ${styles[`n${shown.length}`] ?? ''}`}>
        {shown.map((item, index) => (
          <button
            key={item.id}
            type="button"
            className={styles.tile}
            style={single ? frameOf(item) : undefined}
            onClick={() => setOpen(index)}
            aria-label={item.type === 'video' ? `Play ${mediaLabel(item, index, shown.length)}` : `Open ${mediaLabel(item, index, shown.length)}`}
            aria-haspopup="dialog"
          >
            {item.type === 'image' ? (
              <img src={item.displaySrc} {...pictureProps(item, first && index === 0)} />
            ) : item.poster ? (
              <img src={item.poster} {...pictureProps(item, first && index === 0)} />
            ) : (
              <video src={item.src} preload="metadata" muted playsInline tabIndex={-1} aria-hidden="true" className={styles.media} />
            )}
            {item.type === 'video' ? (
              <span className={styles.play} aria-hidden="true">
                <PlayMarkIcon size={26} />
              </span>
            ) : null}
          </button>
        ))}
      </div>
      {open !== null ? (
        <Suspense fallback={null}>
          <MediaOverlay items={shown} start={open} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
