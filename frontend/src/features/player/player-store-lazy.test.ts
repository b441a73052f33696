import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerTrack } from './player-store';
import { stubMedia } from './test-media';

const TRACK: PlayerTrack = {
  postId: 'p1',
  index: 0,
  title: 'Night Drive',
  artist: 'Ana Sol',
  coverUrl: null,
  url: '/media/night-drive.mp3',
  durationSeconds: 185,
  peaks: null,
};

// The <audio> engine's code is a chunk of its own, asked for when the page is idle: a play
// asked before it came waits for it, and a pause meanwhile wins.
describe('a play asked before the engine has loaded', () => {
  // Each test with the store's module anew: its engine not loaded yet.
  beforeEach(() => {
    vi.resetModules();
  });

  it('buffers, then plays once the engine is there; a pause meanwhile wins', async () => {
    const { createPlayerStore, loadAudioEngine } = await import('./player-store');
    const media = stubMedia();
    const store = createPlayerStore();
    store.play(TRACK);
    store.pause();
    store.play(TRACK, 30);
    expect(store.getState()).toMatchObject({ track: TRACK, playing: true, buffering: true, error: null });
    await loadAudioEngine();
    await Promise.resolve();
    expect(media.audio().src).toContain('/media/night-drive.mp3');
    expect(media.audio().currentTime).toBe(30);
    expect(store.getState()).toMatchObject({ track: TRACK, playing: true });
  });

  it('stays paused when paused before the engine came', async () => {
    const { createPlayerStore, loadAudioEngine } = await import('./player-store');
    const media = stubMedia();
    const store = createPlayerStore();
    store.play(TRACK);
    store.pause();
    await loadAudioEngine();
    await Promise.resolve();
    expect(store.getState().playing).toBe(false);
    expect(media.play).not.toHaveBeenCalled();
  });
});
