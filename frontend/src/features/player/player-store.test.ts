import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaEngine, MediaEvent } from './media-engine';
import { createPlayerStore, loadAudioEngine, pauseThePlayerWhenMediaStarts, type PlayerTrack } from './player-store';
import { fire, playTo, setDuration, stubMedia } from './test-media';

const TRACK: PlayerTrack = {
  postId: 'p1',
  index: 0,
  title: 'Night Drive',
  artist: 'Ana Sol',
  coverUrl: '/media/cover.jpg',
  url: '/media/night-drive.mp3',
  durationSeconds: 185,
  peaks: null,
};

const OTHER: PlayerTrack = { ...TRACK, postId: 'p2', title: 'Low Tide', url: '/media/low-tide.mp3', coverUrl: null };

/** A stand-in for navigator.mediaSession, which jsdom lacks. */
function fakeMediaSession() {
  const handlers = new Map<string, MediaSessionActionHandler | null>();
  const session = {
    metadata: null as MediaMetadataInit | null,
    playbackState: 'none',
    setActionHandler: (action: string, handler: MediaSessionActionHandler | null) => handlers.set(action, handler),
    setPositionState: vi.fn(),
  };
  Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: session });
  vi.stubGlobal(
    'MediaMetadata',
    class {
      constructor(init: MediaMetadataInit) {
        Object.assign(this, init);
      }
    },
  );
  return { session, handlers };
}

// As the page does once it is idle (player-context.tsx); player-store-lazy.test.ts plays before.
beforeAll(loadAudioEngine);

afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaSession');
  vi.unstubAllGlobals();
});

describe('createPlayerStore', () => {
  it('queues the rest of the list a track was played from: Next, Previous and the end walk it', () => {
    const media = stubMedia();
    const third: PlayerTrack = { ...TRACK, postId: 'p3', title: 'Third', url: '/media/third.mp3' };
    const list = [TRACK, OTHER, third];
    const store = createPlayerStore();
    store.play(OTHER, undefined, list);
    expect(store.getState().queue).toBe(list);
    store.next();
    expect(store.getState().track).toBe(third);
    store.next();
    expect(store.getState().track).toBe(third);
    store.previous();
    expect(store.getState().track).toBe(OTHER);
    // Past its first seconds, Previous starts the track again.
    playTo(media.audio(), 20);
    store.previous();
    expect(store.getState().track).toBe(OTHER);
    expect(media.audio().currentTime).toBe(0);
    // The end of a track plays the next one; the end of the last stops.
    fire(media.audio(), 'ended');
    expect(store.getState()).toMatchObject({ track: third, playing: true });
    fire(media.audio(), 'ended');
    expect(store.getState()).toMatchObject({ track: third, playing: false });
    // A track played alone has only itself.
    store.play({ ...TRACK, postId: 'alone' });
    expect(store.getState().queue).toHaveLength(1);
  });

  it('plays at the volume remembered on this device, and keeps it when the track stops', () => {
    const media = stubMedia();
    localStorage.setItem('selfsound.volume', JSON.stringify({ volume: 0.3, muted: true }));
    const store = createPlayerStore();
    store.play(TRACK);
    expect(media.audio().volume).toBe(0.3);
    expect(media.audio().muted).toBe(true);
    store.setVolume(0.6);
    expect(store.getState()).toMatchObject({ volume: 0.6, muted: false });
    store.stop();
    expect(store.getState()).toMatchObject({ track: null, volume: 0.6, muted: false });
    localStorage.setItem('selfsound.volume', 'not json');
    expect(createPlayerStore().getState()).toMatchObject({ volume: 1, muted: false });
  });

  it('evens tracks out: a loud one is lowered through the element, the switch is remembered', () => {
    const media = stubMedia();
    localStorage.removeItem('selfsound.evenLoudness');
    const store = createPlayerStore();
    expect(store.getState().evenLoudness).toBe(true);
    store.setVolume(0.5);
    // −8 LUFS is 6 dB over the target: half the amplitude.
    store.play({ ...TRACK, loudness: { integratedLufs: -8, truePeakDbtp: 0 } });
    expect(media.audio().volume).toBeCloseTo(0.5 * 10 ** (-6 / 20));
    store.toggleEvenLoudness();
    expect(media.audio().volume).toBe(0.5);
    expect(localStorage.getItem('selfsound.evenLoudness')).toBe('off');
    expect(createPlayerStore().getState().evenLoudness).toBe(false);
    store.toggleEvenLoudness();
    // A track not measured plays as it is.
    store.play(OTHER);
    expect(media.audio().volume).toBe(0.5);
    localStorage.removeItem('selfsound.evenLoudness');
  });

  it('raises a quiet track of this origin through a gain node, never the element past full', () => {
    const media = stubMedia();
    const gains: number[] = [];
    const made: string[] = [];
    class FakeContext {
      destination = {};
      createGain() {
        const node = { gain: { set value(v: number) { gains.push(v); } }, connect: (to: unknown) => to };
        return node;
      }
      createMediaElementSource() {
        made.push('source');
        return { connect: (to: unknown) => to };
      }
      resume = () => Promise.resolve();
      close = () => Promise.resolve();
    }
    vi.stubGlobal('AudioContext', FakeContext);
    const store = createPlayerStore();
    store.setVolume(1);
    store.play({ ...TRACK, loudness: { integratedLufs: -20, truePeakDbtp: -10 } });
    expect(made).toEqual(['source']);
    expect(gains.at(-1)).toBeCloseTo(10 ** (6 / 20));
    expect(media.audio().volume).toBe(1);
    // A file of another origin cannot go through the graph: a new element, only lowered.
    store.play({ ...OTHER, url: 'https://cdn.example/low-tide.mp3', loudness: { integratedLufs: -20, truePeakDbtp: -10 } });
    expect(made).toEqual(['source']);
    expect(media.elements).toHaveLength(2);
    expect(media.audio().volume).toBe(1);
  });

  it('makes no audio element before the first play', () => {
    stubMedia();
    const create = vi.fn(() => document.createElement('audio'));
    const store = createPlayerStore(create);
    store.pause();
    store.seek(10);
    expect(create).not.toHaveBeenCalled();
    store.play(TRACK);
    store.play(OTHER);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('tells state listeners about changes, and only time listeners about the position', () => {
    const media = stubMedia();
    const store = createPlayerStore();
    const onState = vi.fn();
    const onTime = vi.fn();
    store.subscribe(onState);
    store.subscribeTime(onTime);

    store.play(TRACK);
    expect(store.getState()).toMatchObject({ track: TRACK, playing: true, duration: 185, error: null });
    onState.mockClear();

    playTo(media.audio(), 1);
    playTo(media.audio(), 1.25);
    expect(onTime).toHaveBeenCalledTimes(2);
    expect(store.getTime()).toBe(1.25);
    expect(onState).not.toHaveBeenCalled();

    setDuration(media.audio(), 190);
    expect(store.getState().duration).toBe(190);
    expect(onState).toHaveBeenCalledTimes(1);
  });

  it('clamps seeks to the track', () => {
    const media = stubMedia();
    const store = createPlayerStore();
    store.play(TRACK);
    store.seek(-3);
    expect(media.audio().currentTime).toBe(0);
    store.seek(999);
    expect(media.audio().currentTime).toBe(185);
  });

  it('toggles the current track, and switches to another one', () => {
    const media = stubMedia();
    const store = createPlayerStore();
    store.play(TRACK);
    store.toggle();
    expect(store.getState().playing).toBe(false);
    store.toggle();
    expect(store.getState().playing).toBe(true);
    expect(media.play).toHaveBeenCalledTimes(2);
    store.toggle(OTHER);
    expect(store.getState()).toMatchObject({ track: OTHER, playing: true });
  });

  it('tells the system media controls what plays, and obeys them', () => {
    const media = stubMedia();
    const { session, handlers } = fakeMediaSession();
    const store = createPlayerStore();
    store.play(TRACK);

    expect(session.metadata).toMatchObject({
      title: 'Night Drive',
      artist: 'Ana Sol',
      artwork: [{ src: `${window.location.origin}/media/cover.jpg` }],
    });
    expect(session.playbackState).toBe('playing');

    handlers.get('pause')?.({ action: 'pause' });
    expect(store.getState().playing).toBe(false);
    expect(session.playbackState).toBe('paused');
    handlers.get('play')?.({ action: 'play' });
    expect(store.getState().playing).toBe(true);

    handlers.get('seekto')?.({ action: 'seekto', seekTime: 60 });
    expect(media.audio().currentTime).toBe(60);
    handlers.get('seekbackward')?.({ action: 'seekbackward' });
    expect(media.audio().currentTime).toBe(50);
    handlers.get('seekforward')?.({ action: 'seekforward', seekOffset: 30 });
    expect(media.audio().currentTime).toBe(80);
    expect(session.setPositionState).toHaveBeenLastCalledWith({ duration: 185, position: 80, playbackRate: 1 });

    store.play(OTHER);
    // No cover: the app's icon (issue 34).
    expect(session.metadata).toMatchObject({ title: 'Low Tide', artwork: [{ src: `${window.location.origin}/artwork.png` }] });
  });

  it('reports a media error on the current track, and forgets everything on dispose', () => {
    const media = stubMedia();
    const { handlers } = fakeMediaSession();
    const store = createPlayerStore();
    store.play(TRACK);
    Object.defineProperty(media.audio(), 'error', { configurable: true, value: { code: 2 } });
    fire(media.audio(), 'error');
    expect(store.getState()).toMatchObject({ playing: false, error: 'Failed to play audio' });

    store.dispose();
    expect(store.getState()).toMatchObject({ track: null, playing: false, error: null });
    expect(media.audio().hasAttribute('src')).toBe(false);
    expect(handlers.get('play')).toBeNull();
  });

  it('plays one medium at a time: a video that starts pauses the player, which pauses a video when it starts', () => {
    const media = stubMedia();
    const store = createPlayerStore();
    const stop = pauseThePlayerWhenMediaStarts(store);
    const video = document.body.appendChild(document.createElement('video'));
    const preview = document.body.appendChild(document.createElement('video'));
    preview.muted = true;
    try {
      store.play(TRACK);
      expect(store.getState().playing).toBe(true);

      // A muted preview tile starting changes nothing; the video in the overlay does.
      fire(preview, 'play');
      expect(store.getState().playing).toBe(true);
      fire(video, 'play');
      // Paused, not stopped: the track stays, ready to resume.
      expect(store.getState()).toMatchObject({ track: TRACK, playing: false });

      // The video is playing when the listener resumes the track: the video pauses.
      Object.defineProperty(video, 'paused', { configurable: true, get: () => false });
      media.pause.mockClear();
      store.toggle();
      Object.defineProperty(media.audio(), 'paused', { configurable: true, get: () => false });
      fire(media.audio(), 'play');
      expect(media.pause.mock.contexts).toEqual([video]);
      expect(store.getState().playing).toBe(true);
    } finally {
      stop();
      video.remove();
      preview.remove();
    }
  });

  describe('with an engine of its own (a score played by the synthesiser)', () => {
    /** An engine that keeps time by hand and says what it was asked. */
    function fakeEngine() {
      const listeners = new Set<(event: MediaEvent) => void>();
      const log: string[] = [];
      let at = 0;
      let playing = false;
      const engine: MediaEngine = {
        play: () => {
          log.push('play');
          playing = true;
          for (const l of listeners) l('play');
        },
        pause: () => {
          log.push('pause');
          if (playing) for (const l of listeners) l('pause');
          playing = false;
        },
        seek: (s) => {
          log.push(`seek ${s}`);
          at = s;
        },
        currentTime: () => at,
        duration: () => 42,
        setVolume: (v, m) => log.push(`volume ${v} ${m}`),
        stop: () => log.push('stop'),
        onEvent: (l) => {
          listeners.add(l);
          return () => listeners.delete(l);
        },
      };
      return { engine, log, end: () => listeners.forEach((l) => l('ended')), isPlaying: () => playing };
    }

    it('plays, pauses, seeks, takes the volume and stops through the engine; the <audio> element rests', () => {
      const media = stubMedia();
      const fake = fakeEngine();
      const store = createPlayerStore();
      const score: PlayerTrack = { ...TRACK, postId: 's1', title: 'Etude', artist: 'Clara', engine: fake.engine };
      store.play(score);
      expect(store.getState()).toMatchObject({ track: score, playing: true, duration: 42 });
      expect(media.elements).toHaveLength(0);
      store.seek(10);
      expect(store.getTime()).toBe(10);
      store.setVolume(0.5);
      store.toggle();
      expect(store.getState().playing).toBe(false);
      store.toggle();
      expect(store.getState().playing).toBe(true);
      fake.end();
      expect(store.getState().playing).toBe(false);
      store.stop();
      expect(fake.log).toEqual(['volume 1 false', 'play', 'seek 10', 'volume 0.5 false', 'pause', 'volume 0.5 false', 'play', 'pause', 'stop']);
      expect(store.getState().track).toBeNull();
    });

    it('one medium at a time: a track pauses the score, and the score pauses a playing track and videos', () => {
      const media = stubMedia();
      const fake = fakeEngine();
      const store = createPlayerStore();
      const score: PlayerTrack = { ...TRACK, postId: 's1', engine: fake.engine };
      store.play(TRACK);
      fire(media.audio(), 'play');
      const video = document.createElement('video');
      document.body.append(video);
      Object.defineProperty(video, 'paused', { configurable: true, value: false });
      const pauseVideo = vi.spyOn(video, 'pause').mockImplementation(() => {});
      store.play(score);
      expect(media.pause).toHaveBeenCalled();
      expect(pauseVideo).toHaveBeenCalled();
      expect(fake.isPlaying()).toBe(true);
      store.play(OTHER);
      expect(fake.isPlaying()).toBe(false);
      expect(store.getState().track).toBe(OTHER);
      video.remove();
    });

    it('keeps the engines of at most three scores: the oldest not playing lets go of its own', () => {
      stubMedia();
      const store = createPlayerStore();
      const score = (n: number) => {
        const fake = fakeEngine();
        return { fake, track: { ...TRACK, postId: `s${n}`, url: `/media/score-${n}.musicxml`, engine: fake.engine } };
      };
      const [one, two, three, four, five] = [score(1), score(2), score(3), score(4), score(5)] as const;
      const stopped = () => [one, two, three, four, five].map((s) => s.fake.log.includes('stop'));
      const kept = (...scores: Array<typeof one>) => scores.map((s) => store.kept(s.track.url));

      for (const s of [one, two, three]) store.keep(s.track);
      expect(kept(one, two, three)).toEqual([one.track, two.track, three.track]);

      // The oldest is playing: the next oldest lets go when a fourth is kept.
      store.play(one.track);
      store.keep(four.track);
      expect(kept(one, two, three, four)).toEqual([one.track, undefined, three.track, four.track]);
      expect(stopped()).toEqual([false, true, false, false, false]);
      expect(store.getState()).toMatchObject({ track: one.track, playing: true });

      // Paused, the oldest is the one to go.
      store.pause();
      store.keep(five.track);
      expect(kept(one, three, four, five)).toEqual([undefined, three.track, four.track, five.track]);
      expect(stopped()).toEqual([true, true, false, false, false]);

      // Keeping one again changes nothing; disposing of the player lets go of them all.
      store.keep(five.track);
      expect(stopped()).toEqual([true, true, false, false, false]);
      store.dispose();
      expect(stopped()).toEqual([true, true, true, true, true]);
      expect(kept(five)).toEqual([undefined]);
    });

    it('a video that starts pauses the score', () => {
      stubMedia();
      const fake = fakeEngine();
      const store = createPlayerStore();
      const stop = pauseThePlayerWhenMediaStarts(store);
      store.play({ ...TRACK, engine: fake.engine });
      const video = document.createElement('video');
      document.body.append(video);
      video.dispatchEvent(new Event('play'));
      expect(fake.isPlaying()).toBe(false);
      expect(store.getState().playing).toBe(false);
      stop();
      video.remove();
    });
  });
});
