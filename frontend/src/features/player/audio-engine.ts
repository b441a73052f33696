/**
 * The player's own <audio> element as a `MediaEngine`, so the store drives a track exactly as it
 * drives a score's synthesiser: one element for every track (a new track is a new `src`), made on
 * the first play and never before (a page with no playing track holds no media element and loads
 * nothing). The element's events are told in the engine's words.
 *
 * A track's evening gain (loudness.ts) lowers it through the element's volume; raising one needs
 * Web Audio (the element through a GainNode), which is used only for files of the page's own
 * origin: a file of another origin sent without CORS headers would play silent through it. A
 * track of another origin after such a one gets a new element of its own, and is only lowered.
 */
import type { MediaEngine, MediaEvent } from './media-engine';

interface Graph {
  context: AudioContext;
  gain: GainNode;
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

export class AudioEngine implements MediaEngine {
  private el: HTMLAudioElement | null = null;
  private readonly listeners = new Set<(event: MediaEvent) => void>();
  /** The length the element reported, else the one the track gave with its source. */
  private length = 0;
  private volume = 1;
  private muted = false;
  /** The evening gain, linear. */
  private gain = 1;
  private graph: Graph | null = null;

  constructor(private readonly createAudio: () => HTMLAudioElement = () => document.createElement('audio')) {}

  load(url: string, duration: number): void {
    if (this.graph && !sameOrigin(url)) this.release();
    const el = this.element();
    // A new source stands at its start: the element's position is 0 from here on.
    el.src = url;
    this.length = duration;
    this.apply();
  }

  play(): Promise<void> {
    // A context made outside a click may start suspended: playing is the person's asking.
    void this.graph?.context.resume().catch(() => undefined);
    // An old browser answers nothing: then the media events tell the rest.
    return Promise.resolve(this.element().play());
  }

  pause(): void {
    this.el?.pause();
  }

  seek(seconds: number): void {
    if (this.el) this.el.currentTime = seconds;
  }

  currentTime(): number {
    return this.el?.currentTime ?? 0;
  }

  duration(): number {
    return this.length;
  }

  /** Until it can play on without stopping (HAVE_FUTURE_DATA). */
  waiting(): boolean {
    return (this.el?.readyState ?? 0) < 3;
  }

  setVolume(volume: number, muted: boolean): void {
    this.volume = volume;
    this.muted = muted;
    this.apply();
  }

  setSpeed(speed: number): void {
    const el = this.element();
    // The default too: a new source starts at it.
    el.defaultPlaybackRate = el.playbackRate = speed;
    el.preservesPitch = true;
  }

  setGain(db: number): void {
    this.gain = Number.isFinite(db) ? 10 ** (db / 20) : 1;
    this.apply();
  }

  /** The volume, mute and gain on the element (and the graph, once there is one). */
  private apply() {
    const el = this.element();
    el.muted = this.muted;
    if (this.gain > 1 && !this.graph) this.graph = this.route(el);
    if (this.graph) {
      this.graph.gain.gain.value = this.gain;
      el.volume = this.volume;
    } else {
      el.volume = this.volume * Math.min(1, this.gain);
    }
  }

  /** The element through a GainNode, when its file is of this origin and the browser can. */
  private route(el: HTMLAudioElement): Graph | null {
    const Context = typeof window.AudioContext === 'function' ? window.AudioContext : null;
    if (!Context || !el.src || !sameOrigin(el.src)) return null;
    try {
      const context = new Context();
      const gain = context.createGain();
      context.createMediaElementSource(el).connect(gain).connect(context.destination);
      return { context, gain };
    } catch {
      return null;
    }
  }

  /** Lets go of the element routed through Web Audio: the next use makes a plain one. */
  private release() {
    const el = this.el;
    if (el) {
      el.pause();
      el.removeAttribute('src');
      el.load();
    }
    void this.graph?.context.close().catch(() => undefined);
    this.graph = null;
    this.el = null;
  }

  stop(): void {
    const el = this.el;
    if (!el) return;
    el.pause();
    el.removeAttribute('src');
    el.load();
  }

  onEvent(listener: (event: MediaEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: MediaEvent) {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** The element, with its listeners, made on first use. */
  private element(): HTMLAudioElement {
    if (this.el) return this.el;
    const el = this.createAudio();
    el.preload = 'auto';
    // An element let go of (`release`) has nothing more to say.
    const emit = (event: MediaEvent) => {
      if (this.el === el) this.emit(event);
    };
    // A play undone before its event arrived (a pause at once) is not reported.
    el.addEventListener('play', () => {
      if (!el.paused) emit('play');
    });
    el.addEventListener('playing', () => {
      if (!el.paused) emit('playing');
    });
    // After a new src is set the old track's pause is not ours to report: only a real pause is.
    el.addEventListener('pause', () => {
      if (el.paused) emit('pause');
    });
    el.addEventListener('waiting', () => emit('waiting'));
    el.addEventListener('timeupdate', () => emit('time'));
    el.addEventListener('seeked', () => emit('seeked'));
    const onDuration = () => {
      if (Number.isFinite(el.duration) && el.duration > 0) {
        this.length = el.duration;
        emit('durationchange');
      }
    };
    el.addEventListener('durationchange', onDuration);
    el.addEventListener('loadedmetadata', onDuration);
    // Spec §4: at the end the track goes back to its start.
    el.addEventListener('ended', () => {
      el.currentTime = 0;
      emit('ended');
    });
    el.addEventListener('error', () => {
      if (el.error) emit('error');
    });
    this.el = el;
    return el;
  }
}
