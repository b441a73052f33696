import { Suspense, lazy, useMemo } from 'react';
import { PauseIcon, PlayIcon } from '../../components/first-load-icons';
import { formatDuration } from '../../lib/format';
import { CoverArt } from './cover-art';
import { PLAY_FAILED, type AudioItem, type PlayerTrack } from './player-store';
import { SeekSlider } from './seek-slider';
import { streamUrl } from './streams';
import type { TrackMark } from './track-marks';
import { useTrackList } from './track-list';
import { usePlayerActions, usePlayerSelector, usePlayerTime, useTrackStatus } from './use-player';
import { Waveform } from './waveform';
import styles from './audio-track.module.css';

// Only a post page with timed comments draws them: not part of a first visit's script.
const TrackMarks = lazy(() => import('./track-marks').then((m) => ({ default: m.TrackMarks })));

export function toPlayerTrack(postId: string, index: number, item: AudioItem): PlayerTrack {
  return {
    postId,
    index,
    title: item.title,
    artist: item.artist,
    coverUrl: item.coverUrl,
    // What is streamed; the original stays the download (issue 32).
    url: streamUrl(item.url, item.streams),
    durationSeconds: item.durationSeconds,
    peaks: item.peaks,
    loudness: item.loudness,
  };
}

/** The play/pause button's accessible name (spec §2: audio posts have a play/pause button). */
export function playLabel(playing: boolean, title: string): string {
  return `${playing ? 'Pause' : 'Play'} ${title}`;
}

interface ProgressProps {
  track: PlayerTrack;
  /** The m:ss length the post gives, shown until the audio itself knows. */
  length: string;
  current: boolean;
  /** Timed comments on the track, shown along it. */
  marks?: readonly TrackMark[];
}

/**
 * Waveform, slider and times. Only the current track's progress follows the playing position
 * (4×/s); the others stay at 0 and subscribe to nothing.
 */
function TrackProgress({ track, length, current, marks }: ProgressProps) {
  const { play, seek } = usePlayerActions();
  const list = useTrackList();
  const time = usePlayerTime(current);
  const known = usePlayerSelector((state) => (current ? state.duration : 0));
  const duration = known > 0 ? known : (track.durationSeconds ?? 0);
  const total = known > 0 ? formatDuration(known) : length;
  const elapsed = duration > 0 ? Math.min(time, duration) : time;
  const elapsedText = formatDuration(elapsed, Math.floor);

  // Seeking in a track that is not playing starts it there, as clicking a waveform does.
  const seekTo = (seconds: number) => (current ? seek(seconds) : play(track, seconds, list));

  return (
    <>
      <div className={styles.wave}>
        <SeekSlider
          className={styles.seek}
          label={`Seek ${track.title}`}
          value={elapsed}
          max={duration}
          valueText={`${elapsedText} of ${total}`}
          onSeek={seekTo}
        />
        <Waveform
          className={styles.canvas}
          peaks={track.peaks}
          progress={duration > 0 ? elapsed / duration : 0}
          onSeek={(fraction) => {
            if (duration > 0) seekTo(fraction * duration);
            else if (!current) play(track, undefined, list);
          }}
        />
      </div>
      {marks && marks.length > 0 && duration > 0 ? (
        <Suspense fallback={<div className={styles.marksSpace} />}>
          <TrackMarks
            marks={marks}
            duration={duration}
            onPlay={(seconds) => play(track, seconds, list)}
            label={`Comments along ${track.title}`}
          />
        </Suspense>
      ) : null}
      <span className={styles.time}>
        {elapsedText} / {total}
      </span>
    </>
  );
}

/**
 * One track of an audio post (spec §2 Post card, §4 Audio playback): cover, title and artist,
 * a play/pause button, the waveform with its seek slider (and the timed comments along it, where
 * given), and elapsed/total time. Every track
 * plays through the app's one player, so starting one stops any other.
 */
export function AudioTrack({
  postId,
  track,
  index,
  marks,
}: {
  postId: string;
  track: AudioItem;
  index: number;
  /** Timed comments on this track, shown along its waveform (the post page). */
  marks?: readonly TrackMark[];
}) {
  const status = useTrackStatus(postId, index);
  const { play, pause } = usePlayerActions();
  const list = useTrackList();
  const playerTrack = useMemo(() => toPlayerTrack(postId, index, track), [postId, index, track]);
  const active = status === 'playing' || status === 'loading';

  return (
    <div className={styles.track} role="group" aria-label={`${track.title} by ${track.artist}`} data-status={status}>
      <div className={styles.layout}>
        <CoverArt src={track.coverUrl} className={styles.cover} />
        <div className={styles.head}>
          <button
            type="button"
            className={styles.play}
            aria-label={playLabel(active, track.title)}
            aria-busy={status === 'loading' || undefined}
            onClick={() => (active ? pause() : play(playerTrack, undefined, list))}
          >
            {active ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
          </button>
          <div className={styles.meta}>
            <span className={styles.artist}>{track.artist}</span>
            <span className={styles.title}>{track.title}</span>
          </div>
        </div>
        <div className={styles.body}>
          <TrackProgress track={playerTrack} length={track.duration} current={status !== 'idle'} marks={marks} />
        </div>
        {status === 'error' ? (
          <p className={styles.error} role="alert">
            {PLAY_FAILED}
          </p>
        ) : null}
      </div>
    </div>
  );
}
