import { describe, expect, it } from 'vitest';
import { PLAY_COUNTS_AFTER, TOLD_FOR_MS, countPlays, playThreshold } from './play-counter';
import type { PlayerState, PlayerStore, PlayerTrack } from './player-store';

function track(postId: string, index = 0, durationSeconds: number | null = 200): PlayerTrack {
  return { postId, index, title: 't', artist: 'a', coverUrl: null, url: `/${postId}/${index}`, durationSeconds, peaks: null };
}

/** What the counter reads of the player: its state and position, changed by the test. */
function fakePlayer() {
  let state: PlayerState = {
    track: null,
    playing: false,
    buffering: false,
    duration: 0,
    error: null,
    volume: 1,
    muted: false,
    evenLoudness: true,
    speed: 1,
    queue: [],
  };
  let time = 0;
  const listeners = new Set<() => void>();
  const timeListeners = new Set<() => void>();
  const store: Pick<PlayerStore, 'getState' | 'subscribe' | 'getTime' | 'subscribeTime'> = {
    getState: () => state,
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    getTime: () => time,
    subscribeTime: (l) => (timeListeners.add(l), () => timeListeners.delete(l)),
  };
  return {
    store,
    set(patch: Partial<PlayerState>) {
      state = { ...state, ...patch };
      for (const l of [...listeners]) l();
    },
    at(seconds: number) {
      time = seconds;
      for (const l of [...timeListeners]) l();
    },
    /** Plays on from where it is for `seconds`, reporting the position every quarter second. */
    playFor(seconds: number) {
      const end = time + seconds;
      while (time < end - 1e-9) this.at(Math.min(end, time + 0.25));
    },
  };
}

describe('playThreshold', () => {
  it('is 30 s, or nearly all of a shorter track', () => {
    expect(playThreshold(200)).toBe(PLAY_COUNTS_AFTER);
    expect(playThreshold(0)).toBe(PLAY_COUNTS_AFTER);
    expect(playThreshold(Number.NaN)).toBe(PLAY_COUNTS_AFTER);
    expect(playThreshold(10)).toBe(9);
    expect(playThreshold(1)).toBe(0.5);
  });
});

describe('countPlays', () => {
  function setup(clock = { now: 0 }) {
    const player = fakePlayer();
    const told: PlayerTrack[] = [];
    const stop = countPlays(player.store, (t) => told.push(t), () => clock.now);
    return { player, told, stop, clock };
  }

  it('tells of a play once it has sounded for 30 seconds, once', () => {
    const { player, told } = setup();
    const a = track('1');
    player.set({ track: a, playing: true, duration: 200 });
    player.at(0);
    player.playFor(29.5);
    expect(told).toEqual([]);
    player.playFor(1);
    expect(told).toEqual([a]);
    player.playFor(60);
    expect(told).toHaveLength(1);
  });

  it('does not count seeks, pauses or buffering as sound', () => {
    const { player, told } = setup();
    player.set({ track: track('1'), playing: true, duration: 200 });
    player.at(0);
    player.playFor(10);
    player.at(150); // a seek far ahead
    player.playFor(10);
    player.set({ playing: false });
    player.at(175); // moved while paused
    player.set({ playing: true, buffering: true });
    player.at(176);
    player.set({ buffering: false });
    player.playFor(9.5);
    expect(told).toEqual([]);
    player.playFor(1);
    expect(told).toHaveLength(1);
  });

  it('counts a short track played to its end, and not one skipped', () => {
    const { player, told } = setup();
    const clip = track('2', 0, 8);
    player.set({ track: clip, playing: true, duration: 8 });
    player.at(0);
    player.playFor(5);
    player.set({ track: track('3', 0, 8), duration: 8 }); // skipped to the next
    player.at(0);
    player.playFor(7.25);
    expect(told.map((t) => t.postId)).toEqual(['3']);
  });

  it('starts over for another track, and tells of each track of a post apart', () => {
    const { player, told } = setup();
    player.set({ track: track('4', 0), playing: true, duration: 200 });
    player.at(0);
    player.playFor(20);
    player.set({ track: track('4', 1) });
    player.at(0);
    player.playFor(20);
    expect(told).toEqual([]);
    player.playFor(10);
    expect(told.map((t) => t.index)).toEqual([1]);
  });

  it('stays quiet about a track told within the hour, then tells again', () => {
    const { player, told, clock } = setup();
    const a = track('5', 0, 40);
    player.set({ track: a, playing: true, duration: 40 });
    player.at(0);
    player.playFor(31);
    player.at(0); // played again from the start
    player.playFor(31);
    expect(told).toHaveLength(1);
    clock.now = TOLD_FOR_MS;
    player.at(0);
    player.playFor(31);
    expect(told).toHaveLength(2);
  });

  it('stops counting when stopped', () => {
    const { player, told, stop } = setup();
    player.set({ track: track('6'), playing: true, duration: 200 });
    player.at(0);
    stop();
    player.playFor(40);
    expect(told).toEqual([]);
  });
});
