import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import styles from './seek-slider.module.css';

/** Arrow keys move this far; Page Up/Down a tenth of the track (at least this). */
const ARROW_SECONDS = 5;

interface SeekSliderProps {
  /** The accessible name, e.g. 'Seek Night Drive'. */
  label: string;
  /** Seconds played. */
  value: number;
  /** Seconds in the track; 0 while unknown (the slider is then disabled). */
  max: number;
  /** What a screen reader reads for the value, e.g. '1:05 of 3:20'. */
  valueText: string;
  onSeek: (seconds: number) => void;
  className?: string;
}

/**
 * A seek slider (<input type="range">). A pointer drag only previews where it goes; the seek
 * happens on release (the native change event), so the audio does not stutter through every
 * position. Keys seek at once: arrows ±5 s, Page Up/Down ±10 %, Home and End.
 */
export function SeekSlider({ label, value, max, valueText, onSeek, className }: SeekSliderProps) {
  const ref = useRef<HTMLInputElement>(null);
  const [drag, setDrag] = useState<number | null>(null);
  const known = max > 0;
  const shown = known ? Math.min(max, Math.max(0, drag ?? value)) : 0;

  // The newest onSeek for the native listener, without re-adding it on every render.
  const seekRef = useRef(onSeek);
  useEffect(() => {
    seekRef.current = onSeek;
  });

  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    const onCommit = () => {
      setDrag(null);
      seekRef.current(Number(input.value));
    };
    input.addEventListener('change', onCommit);
    return () => input.removeEventListener('change', onCommit);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!known || event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(ARROW_SECONDS * 2, max / 10);
    const moves: Record<string, number> = {
      ArrowRight: shown + ARROW_SECONDS,
      ArrowUp: shown + ARROW_SECONDS,
      ArrowLeft: shown - ARROW_SECONDS,
      ArrowDown: shown - ARROW_SECONDS,
      PageUp: shown + page,
      PageDown: shown - page,
      Home: 0,
      End: max,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    setDrag(null);
    onSeek(Math.min(max, Math.max(0, to)));
  };

  return (
    <input
      ref={ref}
      type="range"
      className={[styles.slider, className].filter(Boolean).join(' ')}
      aria-label={label}
      aria-valuetext={valueText}
      min={0}
      max={known ? max : 1}
      step="any"
      value={shown}
      disabled={!known}
      onChange={(event) => {
        // React calls this for the native change too, after the listener above has seeked.
        if (event.nativeEvent.type === 'input') setDrag(Number(event.currentTarget.value));
      }}
      onKeyDown={onKeyDown}
      onBlur={() => setDrag(null)}
      style={{ '--fill': `${known ? (shown / max) * 100 : 0}%` } as CSSProperties}
    />
  );
}
