import { useId } from 'react';
import { Avatar } from '../../components/avatar';
import { formatDuration } from '../../lib/format';
import { useElementWidth } from '../../lib/use-element-width';
import styles from './track-marks.module.css';

/** Something said about a moment of a track (a timed comment): who, when in the track, what. */
export interface TrackMark {
  id: string;
  /** Seconds into the track. */
  seconds: number;
  name: string;
  avatarUrl: string | null;
  text: string;
}

/** A mark's width in CSS pixels: marks closer than this share one place. */
export const MARK_SIZE = 22;
/** How many of a place's marks its card shows; the rest are counted. */
const SHOWN_IN_CARD = 3;
/** How much of a mark's text its card shows. */
const CARD_TEXT = 90;

/** Marks close together, shown as one: where the first of them is (0..1 of the track). */
export interface MarkPlace {
  at: number;
  marks: TrackMark[];
}

/**
 * The places of `marks` along a strip `width` CSS pixels wide for a track of `duration` seconds:
 * in the order of their moments, each place starting at its first mark and taking every mark
 * less than a mark's width after it. Marks past the end (a length that changed) sit at the end.
 */
export function markPlaces(marks: readonly TrackMark[], duration: number, width: number): MarkPlace[] {
  if (duration <= 0 || width <= 0) return [];
  const sorted = [...marks].sort((a, b) => a.seconds - b.seconds);
  const places: MarkPlace[] = [];
  let current: MarkPlace | null = null;
  for (const mark of sorted) {
    const at = Math.min(1, Math.max(0, mark.seconds / duration));
    if (current && (at - current.at) * width < MARK_SIZE) {
      current.marks.push(mark);
    } else {
      current = { at, marks: [mark] };
      places.push(current);
    }
  }
  return places;
}

function shortText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > CARD_TEXT ? `${flat.slice(0, CARD_TEXT - 1)}…` : flat;
}

function Place({ place, width, onPlay }: { place: MarkPlace; width: number; onPlay: (seconds: number) => void }) {
  const cardId = useId();
  const [first] = place.marks;
  if (!first) return null;
  const count = place.marks.length;
  const time = formatDuration(first.seconds, Math.floor);
  const left = Math.min(Math.max(0, place.at * width - MARK_SIZE / 2), Math.max(0, width - MARK_SIZE));
  const label =
    count === 1 ? `Comment by ${first.name} at ${time}` : `${count} comments from ${time}, the first by ${first.name}`;
  return (
    <div className={styles.place} style={{ left }} data-end={place.at > 0.5 ? 'right' : 'left'}>
      <button
        type="button"
        className={styles.mark}
        aria-label={label}
        aria-describedby={cardId}
        onClick={() => onPlay(first.seconds)}
      >
        <Avatar src={first.avatarUrl} name="" size={MARK_SIZE - 2} className={styles.avatar} />
        {count > 1 ? (
          <span className={styles.count} aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </button>
      <div className={styles.card} role="tooltip" id={cardId}>
        {place.marks.slice(0, SHOWN_IN_CARD).map((mark) => (
          <p key={mark.id} className={styles.line}>
            <span className={styles.who}>
              {mark.name} · {formatDuration(mark.seconds, Math.floor)}
            </span>{' '}
            {shortText(mark.text)}
          </p>
        ))}
        {count > SHOWN_IN_CARD ? <p className={styles.more}>and {count - SHOWN_IN_CARD} more</p> : null}
      </div>
    </div>
  );
}

/**
 * Timed comments along a track, under its waveform: each a small avatar at its moment (those
 * closer than an avatar's width share one, with their count); hovering or focusing one shows
 * what was said, and pressing it plays the track from there.
 */
export function TrackMarks({
  marks,
  duration,
  onPlay,
  label,
}: {
  marks: readonly TrackMark[];
  duration: number;
  onPlay: (seconds: number) => void;
  label: string;
}) {
  const { ref, width } = useElementWidth(0);
  const places = markPlaces(marks, duration, width);
  return (
    <div ref={ref} className={styles.strip} role="group" aria-label={label} data-testid="track-marks">
      {places.map((place) => (
        <Place key={place.marks[0]?.id} place={place} width={width} onPlay={onPlay} />
      ))}
    </div>
  );
}
