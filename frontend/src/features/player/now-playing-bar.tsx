import { Link } from 'react-router';
import { CloseIcon, PauseIcon, PlayIcon } from '../../components/first-load-icons';
import { KeyboardIcon, LevelIcon, MutedIcon, NextIcon, PreviousIcon, VolumeIcon } from '../../components/icons';
import { formatDuration } from '../../lib/format';
import { playLabel } from './audio-track';
import { CoverArt } from './cover-art';
import { placeIn } from './player-store';
import { PlayerShortcuts, SHORTCUTS_TITLE, useShortcutsHelp } from './player-shortcuts';
import type { PlayerTrack } from './player-store';
import { SeekSlider } from './seek-slider';
import { usePlayerActions, usePlayerSelector, usePlayerTime } from './use-player';
import styles from './now-playing-bar.module.css';

export const NOW_PLAYING_WORDS = {
  region: 'Now playing',
  close: 'Close player',
  volume: 'Volume',
  mute: 'Mute',
  unmute: 'Unmute',
  evenLoudness: 'Even out loudness',
  previous: 'Previous track',
  next: 'Next track',
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

/** Elapsed and total time on phones, where the slider has no room beside it (issue 19). */
function PhoneTime({ track }: { track: PlayerTrack }) {
  const time = usePlayerTime();
  const known = usePlayerSelector((state) => state.duration);
  const duration = known > 0 ? known : (track.durationSeconds ?? 0);
  const elapsed = duration > 0 ? Math.min(time, duration) : time;
  // Read from the slider's value text by screen readers; this is for the eye.
  return (
    <span className={styles.phoneTime} aria-hidden="true" data-testid="phone-time">
      {formatDuration(elapsed, Math.floor)} / {duration > 0 ? formatDuration(duration) : '0:00'}
    </span>
  );
}

/** Mute and the volume, remembered on this device (wide screens; phones have their keys). */
function Volume() {
  const { setVolume, toggleMute } = usePlayerActions();
  const volume = usePlayerSelector((state) => state.volume);
  const muted = usePlayerSelector((state) => state.muted);
  const level = muted ? 0 : volume;
  return (
    <div className={styles.volume}>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={muted ? NOW_PLAYING_WORDS.unmute : NOW_PLAYING_WORDS.mute}
        onClick={() => toggleMute()}
      >
        {level === 0 ? <MutedIcon size={18} /> : <VolumeIcon size={18} />}
      </button>
      <input
        type="range"
        className={styles.volumeSlider}
        aria-label={NOW_PLAYING_WORDS.volume}
        min={0}
        max={1}
        step={0.05}
        value={level}
        aria-valuetext={`${Math.round(level * 100)}%`}
        onChange={(event) => setVolume(Number(event.target.value))}
      />
      <EvenLoudness />
    </div>
  );
}

/** The switch for evening tracks out to one loudness (loudness.ts), on by default. */
function EvenLoudness() {
  const { toggleEvenLoudness } = usePlayerActions();
  const on = usePlayerSelector((state) => state.evenLoudness);
  return (
    <button
      type="button"
      className={`${styles.iconButton} ${on ? styles.on : ''}`}
      aria-label={NOW_PLAYING_WORDS.evenLoudness}
      aria-pressed={on}
      title={`${NOW_PLAYING_WORDS.evenLoudness}: ${on ? 'on' : 'off'}`}
      onClick={() => toggleEvenLoudness()}
    >
      <LevelIcon size={18} />
    </button>
  );
}

/** Previous and Next through the list the track came from; none for a track played alone. */
function Skip({ direction }: { direction: 'previous' | 'next' }) {
  const { previous, next } = usePlayerActions();
  const queue = usePlayerSelector((state) => state.queue);
  const track = usePlayerSelector((state) => state.track);
  if (queue.length < 2) return null;
  const at = placeIn(queue, track);
  // Previous always restarts the track; Next needs a track after this one.
  const disabled = direction === 'next' && (at < 0 || at >= queue.length - 1);
  return (
    <button
      type="button"
      className={`${styles.iconButton} ${styles.skip} ${direction === 'previous' ? styles.previous : ''}`}
      aria-label={NOW_PLAYING_WORDS[direction]}
      disabled={disabled}
      onClick={() => (direction === 'next' ? next() : previous())}
    >
      {direction === 'next' ? <NextIcon size={18} /> : <PreviousIcon size={18} />}
    </button>
  );
}

function Bar({ track }: { track: PlayerTrack }) {
  const { toggle, stop } = usePlayerActions();
  const [helpOpen, setHelpOpen] = useShortcutsHelp();
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
          <PhoneTime track={track} />
        </span>
      </Link>
      <Skip direction="previous" />
      <button
        type="button"
        className={styles.play}
        aria-label={playLabel(playing, track.title)}
        aria-busy={buffering || undefined}
        onClick={() => toggle()}
      >
        {playing ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
      </button>
      <Skip direction="next" />
      <BarProgress track={track} />
      <Volume />
      <button
        type="button"
        className={`${styles.iconButton} ${styles.shortcuts}`}
        aria-label={SHORTCUTS_TITLE}
        aria-haspopup="dialog"
        onClick={() => setHelpOpen(true)}
      >
        <KeyboardIcon size={18} />
      </button>
      <button type="button" className={styles.iconButton} aria-label={NOW_PLAYING_WORDS.close} onClick={() => stop()}>
        <CloseIcon size={18} />
      </button>
      <PlayerShortcuts helpOpen={helpOpen} onHelp={setHelpOpen} />
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
