import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from '../../../components/first-load-icons';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons';
import type { MediaItem } from '../types';
import { mediaLabel } from './media-grid';
import styles from './media-overlay.module.css';

interface MediaOverlayProps {
  items: readonly MediaItem[];
  /** Which item to show first. */
  start: number;
  onClose: () => void;
}

/**
 * A post's picture or video at full size, over a dark backdrop (spec §2 Post card): the
 * original image, or the video with controls, playing. The ×, a click on the backdrop and
 * Escape close it; with several items the arrows (buttons or keys) go through them. Focus stays
 * inside while it is open and returns to the tile that opened it.
 */
export function MediaOverlay({ items, start, onClose }: MediaOverlayProps) {
  const [index, setIndex] = useState(start);
  const rootRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const item = items[index] ?? items[0];
  const many = items.length > 1;

  // A video starts when shown. Asked for with play() rather than the autoplay attribute: in
  // Chromium an autoplayed video sometimes never fired 'play', so the shared player, which
  // pauses when another medium starts (player-store.ts), went on under it. A browser that
  // refuses leaves it paused, with its controls.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    // An old browser answers nothing; a refusal is the browser's to show.
    Promise.resolve(video.play()).catch(() => {});
  }, [item?.id]);

  const go = (by: number) => setIndex((i) => (i + by + items.length) % items.length);
  const step = useEffectEvent((by: number) => go(by));
  const close = useEffectEvent(() => onClose());

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close();
      } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        // Arrow keys still seek inside a focused video.
        if (event.target instanceof HTMLVideoElement) return;
        event.preventDefault();
        step(event.key === 'ArrowRight' ? 1 : -1);
      } else if (event.key === 'Tab' && rootRef.current) {
        const focusable = Array.from(rootRef.current.querySelectorAll<HTMLElement>('button, video[controls]'));
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last?.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  if (!item) return null;
  const label = mediaLabel(item, index, items.length);

  return createPortal(
    <div
      ref={rootRef}
      className={styles.backdrop}
      role="dialog"
      aria-modal="true"
      aria-label={`Full-size ${label}`}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      data-testid="media-overlay"
    >
      <button ref={closeRef} type="button" className={styles.close} onClick={onClose} aria-label="Close">
        <CloseIcon size={26} />
      </button>
      <div
        className={styles.stage}
        onClick={(event) => {
          if (event.target === event.currentTarget) onClose();
        }}
      >
        {item.type === 'image' ? (
          <img key={item.id} src={item.src} alt={label} className={styles.media} />
        ) : (
          <video
            key={item.id}
            src={item.src}
            poster={item.poster ?? undefined}
            ref={videoRef}
            controls
            playsInline
            className={styles.media}
            aria-label={label}
          />
        )}
      </div>
      {many ? (
        <>
          <button type="button" className={`${styles.arrow} ${styles.previous}`} onClick={() => go(-1)} aria-label="Previous">
            <ChevronLeftIcon size={26} />
          </button>
          <button type="button" className={`${styles.arrow} ${styles.next}`} onClick={() => go(1)} aria-label="Next">
            <ChevronRightIcon size={26} />
          </button>
          <p className={styles.counter} aria-live="polite">
            {index + 1} / {items.length}
          </p>
        </>
      ) : null}
    </div>,
    document.body,
  );
}
