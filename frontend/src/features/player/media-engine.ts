/**
 * What the player drives: a source of sound with a position. The player's own <audio> element is
 * one (audio-engine.ts); a score played by the synthesiser is another (issue 20: scores'
 * `ScorePlayer`). The store treats them alike, so the now-playing bar, the media keys, the volume
 * and "one medium at a time" work for every one of them. Times are in seconds.
 */

/** What an engine tells the player happened on its own. */
export type MediaEvent =
  /** It started sounding (or was asked to and will as soon as it can). */
  | 'play'
  /** It has the data it waited for and sounds. */
  | 'playing'
  /** It stopped sounding (asked to, or by something outside: a headset button). */
  | 'pause'
  /** It waits for data. */
  | 'waiting'
  /** Its position moved as it played. */
  | 'time'
  /** Its position jumped. */
  | 'seeked'
  | 'durationchange'
  /** It reached its end and stands at its start again. */
  | 'ended'
  /** It cannot play what it was given. */
  | 'error';

export interface MediaEngine {
  /**
   * Plays from where it is. A promise that rejects says it could not (but an AbortError only
   * that a newer request interrupted it).
   */
  play(): void | Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  currentTime(): number;
  /** 0 when unknown. */
  duration(): number;
  setVolume(volume: number, muted: boolean): void;
  /**
   * Plays its source this many dB louder or quieter than the file (the track's loudness evened
   * out, loudness.ts), on top of the volume. An engine whose sound is its own (a score's) has none.
   */
  setGain?(db: number): void;
  /**
   * Plays at this share of its speed (0.4 to 1.5), its pitch kept (issue 35: practising along a
   * recording). An engine with a tempo of its own (a score's) has none.
   */
  setSpeed?(speed: number): void;
  /** Stops and lets go of what it holds; it may be played again. */
  stop(): void;
  onEvent(listener: (event: MediaEvent) => void): () => void;
  /**
   * Takes a new source (a track's `url`, of `duration` seconds when known, else 0), standing at
   * its start. An engine made for one piece (a score's) has none.
   */
  load?(url: string, duration: number): void;
  /** Whether it still waits for data before it can sound. An engine that never waits has none. */
  waiting?(): boolean;
}
