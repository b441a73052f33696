/** What the page and the sampler's worklet (sampler-worklet.ts) say to each other. */

/** A note beginning (velocity 1-127) or ending (velocity 0) at an audio-clock time. */
export interface SamplerEvent {
  time: number;
  channel: number;
  key: number;
  velocity: number;
}

export type SamplerMessage =
  /** The SoundFont files the parts need (transferred). */
  | { type: 'banks'; banks: ArrayBuffer[] }
  /** One MIDI channel per part: its General MIDI program (1-128), or a drum kit. */
  | { type: 'parts'; parts: Array<{ program: number; percussion: boolean }> }
  /** Each channel's level, 0 to 1 (0: muted), at once. */
  | { type: 'levels'; levels: number[] }
  | { type: 'events'; events: SamplerEvent[] }
  /** Forget what is scheduled and silence what sounds. */
  | { type: 'hush' };

export type SamplerReply = { type: 'ready' } | { type: 'failed'; reason: string };
