/**
 * When a play counts (issue 31; docs/posts.md, "Plays"): a track, or a score's playback, that
 * has sounded for 30 seconds, or to its end if it is shorter. The counter watches the player's
 * store and tells `report` once per play: only time that really sounded adds up (small steps
 * forward while playing, never a seek's jump nor a pause), so skipping through a track does not
 * count, and a track played on from where it was paused goes on counting. Telling is cheap and
 * never waits on the player; the server counts a listener's plays of a track once an hour, and
 * the counter does not tell of a track again within that hour either.
 */

import type { PlayerStore, PlayerTrack } from './player-store';

/** Seconds of sound after which a play counts. */
export const PLAY_COUNTS_AFTER = 30;

/** How long after telling of a track's play the counter stays quiet about it (the server's hour). */
export const TOLD_FOR_MS = 60 * 60 * 1000;

/** The longest step of the position between two reports that is taken as sound, not a seek. */
const LONGEST_STEP = 1.5;

/**
 * Seconds a track of `duration` must sound for its play to count: 30, or nearly all of a
 * shorter one (the last position the player reports comes a moment before the end).
 */
export function playThreshold(duration: number): number {
  if (!(duration > 0) || duration >= PLAY_COUNTS_AFTER) return PLAY_COUNTS_AFTER;
  return Math.max(duration * 0.5, duration - 1);
}

function keyOf(track: Pick<PlayerTrack, 'postId' | 'index'>): string {
  return `${track.postId}#${track.index}`;
}

/**
 * Counts plays of what `store` plays and calls `report` with each track whose play counts.
 * `now` is the clock (tests pass their own). Returns how to stop.
 */
export function countPlays(
  store: Pick<PlayerStore, 'getState' | 'subscribe' | 'getTime' | 'subscribeTime'>,
  report: (track: PlayerTrack) => void,
  now: () => number = Date.now,
): () => void {
  /** The track being counted, how long it has sounded, where it was last, and whether it was told. */
  let key: string | null = null;
  let sounded = 0;
  let last = store.getTime();
  let told = false;
  /** When each track's play was last told. */
  const toldAt = new Map<string, number>();

  function follow() {
    const { track } = store.getState();
    const next = track ? keyOf(track) : null;
    if (next !== key) {
      key = next;
      sounded = 0;
      told = false;
      last = store.getTime();
    }
  }

  function heard() {
    const time = store.getTime();
    const step = time - last;
    last = time;
    const state = store.getState();
    const track = state.track;
    if (!track || keyOf(track) !== key) return follow();
    // A track that starts over (played again from its start, or on repeat) is a new play.
    if (step < 0 && time < 1) {
      sounded = 0;
      told = false;
      return;
    }
    if (!state.playing || state.buffering || step <= 0 || step > LONGEST_STEP) return;
    sounded += step;
    if (told || sounded < playThreshold(state.duration || track.durationSeconds || 0)) return;
    told = true;
    const at = now();
    const before = toldAt.get(key);
    if (before !== undefined && at - before < TOLD_FOR_MS) return;
    toldAt.set(key, at);
    for (const [k, t] of toldAt) if (at - t >= TOLD_FOR_MS) toldAt.delete(k);
    report(track);
  }

  follow();
  const offState = store.subscribe(follow);
  const offTime = store.subscribeTime(heard);
  return () => {
    offState();
    offTime();
  };
}
