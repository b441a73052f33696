import { Link } from 'react-router';
import { formatDuration } from '../../lib/format';
import { playLabel } from './audio-track';
import { CoverArt } from './cover-art';
import { CloseIcon, PauseIcon, PlayIcon } from './player-icons';
import type { PlayerTrack } from './player-store';
import { SeekSlider } from './seek-slider';
import { usePlayerActions, usePlayerSelector, usePlayerTime } from './use-player';
import styles from './now-playing-bar.module.css';

export const NOW_PLAYING_WORDS = {
  region: 'Now playing',
  close: 'Close player',
} as const;

/** The post page of a track (spec §2: /post/{postId}). */
export function trackPostPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

/** The only part of the bar that follows the position (4×/s). */
function BarProgress({ track }: { track: PlayerTrack }) {
  const { seek } = usePlayerActions();
  const time = usePlayerTime();
  const known = usePlayerSelector((state) => state.duration);
  const duration = known > 0 ? known : (track.durationSeconds ?? 0);
  const elapsed = duration > 0 ? Math.min(time, duration) : time;
  const total = duration > 0 ? formatDuration(duration) : '0:00';
  return (
    <div className={styles.progress}>
      <span className={styles.time}>{formatDuration(elapsed, Math.floor)}</span>
      <SeekSlider
        className={styles.seek}
        label={`Seek ${track.title}`}
        value={elapsed}
        max={duration}
        valueText={`${formatDuration(elapsed, Math.floor)} of ${total}`}
        onSeek={seek}
      />
      <span className={styles.time}>{total}</span>
    </div>
  );
}

function Bar({ track }: { track: PlayerTrack }) {
  const { toggle, stop } = usePlayerActions();
  const playing = usePlayerSelector((state) => state.playing);
  const buffering = usePlayerSelector((state) => state.playing && state.buffering);
  const error = usePlayerSelector((state) => state.error);

  return (
    <section className={styles.bar} aria-label={NOW_PLAYING_WORDS.region}>
      <Link to={trackPostPath(track.postId)} className={styles.info}>
        <CoverArt src={track.coverUrl} className={styles.cover} />
        <span className={styles.text}>
          <span className={styles.title}>{track.title}</span>
          {error ? (
            <span className={styles.error} role="status">
              {error}
            </span>
          ) : (
            <span className={styles.artist}>{track.artist}</span>
          )}
        </span>
      </Link>
      <button
        type="button"
        className={styles.play}
        aria-label={playLabel(playing, track.title)}
        aria-busy={buffering || undefined}
        onClick={() => toggle()}
      >
        {playing ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
      </button>
      <BarProgress track={track} />
      <button type="button" className={styles.close} aria-label={NOW_PLAYING_WORDS.close} onClick={() => stop()}>
        <CloseIcon size={18} />
      </button>
    </section>
  );
}

/**
 * The track that is loaded, whatever page is open: cover, title and artist (a link to its post),
 * play/pause and a seek slider. Phones: a card floating over the bottom navigation bar; wide
 * screens: docked at the foot of the page beside the side bar. The layout pads its content by
 * --now-playing-height while the bar shows (app-layout.module.css).
 */
export function NowPlayingBar() {
  const track = usePlayerSelector((state) => state.track);
  return track ? <Bar track={track} /> : null;
}
