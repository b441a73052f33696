/**
 * The player's own <audio> element as a `MediaEngine`, so the store drives a track exactly as it
 * drives a score's synthesiser: one element for every track (a new track is a new `src`), made on
 * the first play and never before (a page with no playing track holds no media element and loads
 * nothing). The element's events are told in the engine's words.
 */
import type { MediaEngine, MediaEvent } from './media-engine';

export class AudioEngine implements MediaEngine {
  private el: HTMLAudioElement | null = null;
  private readonly listeners = new Set<(event: MediaEvent) => void>();
  /** The length the element reported, else the one the track gave with its source. */
  private length = 0;

  constructor(private readonly createAudio: () => HTMLAudioElement = () => document.createElement('audio')) {}

  load(url: string, duration: number): void {
    const el = this.element();
    // A new source stands at its start: the element's position is 0 from here on.
    el.src = url;
    this.length = duration;
  }

  play(): Promise<void> {
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
    const el = this.element();
    el.volume = volume;
    el.muted = muted;
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
    // A play undone before its event arrived (a pause at once) is not reported.
    el.addEventListener('play', () => {
      if (!el.paused) this.emit('play');
    });
    el.addEventListener('playing', () => {
      if (!el.paused) this.emit('playing');
    });
    // After a new src is set the old track's pause is not ours to report: only a real pause is.
    el.addEventListener('pause', () => {
      if (el.paused) this.emit('pause');
    });
    el.addEventListener('waiting', () => this.emit('waiting'));
    el.addEventListener('timeupdate', () => this.emit('time'));
    el.addEventListener('seeked', () => this.emit('seeked'));
    const onDuration = () => {
      if (Number.isFinite(el.duration) && el.duration > 0) {
        this.length = el.duration;
        this.emit('durationchange');
      }
    };
    el.addEventListener('durationchange', onDuration);
    el.addEventListener('loadedmetadata', onDuration);
    // Spec §4: at the end the track goes back to its start.
    el.addEventListener('ended', () => {
      el.currentTime = 0;
      this.emit('ended');
    });
    el.addEventListener('error', () => {
      if (el.error) this.emit('error');
    });
    this.el = el;
    return el;
  }
}
