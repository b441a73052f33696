/**
 * Sampled instruments (issue 35): each part played by a real recorded instrument from
 * MuseScore's General SoundFont, through SpessaSynth in an AudioWorklet (sampler-worklet.ts).
 * Only the files of the parts' families are fetched (the build cuts the SoundFont into one per
 * General MIDI family, sound-banks.ts), when a score is first played; they are hashed assets,
 * so the browser keeps them. The page's look-ahead scheduler (score-player.ts) sends each note
 * with its audio-clock time, as it does to the synthesiser.
 */

import { SOUND_BANKS } from 'virtual:sound-banks';
import workletUrl from './sampler-worklet.ts?worker&url';
import type { SamplerEvent, SamplerMessage, SamplerReply } from './sampler-protocol';

export interface SampledPart {
  /** General MIDI program, 1-128. */
  program: number;
  percussion: boolean;
}

/** Whether this build has the sampled instruments (sound-banks.ts). */
export function samplesBuilt(): boolean {
  return SOUND_BANKS !== null;
}

/** The SoundFont files that play these parts: one per General MIDI family, and the drums. */
export function banksFor(parts: readonly SampledPart[]): string[] {
  const names = parts.map((p) => (p.percussion ? 'drums' : `gm-${(Math.max(1, Math.min(128, p.program)) - 1) >> 3}`));
  return [...new Set(names)];
}

async function fetchBank(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.arrayBuffer();
}

export class Sampler {
  private pending: SamplerEvent[] = [];
  private flushing = false;

  /** Told if the worklet dies after it was ready (the player goes back to the synthesiser). */
  onFailure: (() => void) | null = null;

  private constructor(private readonly node: AudioWorkletNode) {}

  /** Fetches what `parts` need and starts the worklet; its sound goes to `output`. */
  static async load(context: AudioContext, parts: readonly SampledPart[], output: AudioNode, signal: AbortSignal): Promise<Sampler> {
    const banks = SOUND_BANKS;
    if (!banks) throw new Error('This build has no sampled instruments.');
    const urls = banksFor(parts).flatMap((name) => banks[name] ?? []);
    const [buffers] = await Promise.all([Promise.all(urls.map((url) => fetchBank(url, signal))), context.audioWorklet.addModule(workletUrl)]);
    signal.throwIfAborted();
    const node = new AudioWorkletNode(context, 'selfsound-sampler', { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [2] });
    const sampler = new Sampler(node);
    const ready = new Promise<void>((resolve, reject) => {
      node.port.onmessage = (e: MessageEvent<SamplerReply>) => {
        if (e.data.type === 'ready') resolve();
        else reject(new Error(e.data.reason));
      };
      node.onprocessorerror = () => {
        reject(new Error('The instruments stopped.'));
        sampler.onFailure?.();
      };
      signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });
    ready.catch(() => node.disconnect());
    sampler.post({ type: 'banks', banks: buffers }, buffers);
    sampler.post({ type: 'parts', parts: parts.map((p) => ({ program: p.program, percussion: p.percussion })) });
    await ready;
    signal.throwIfAborted();
    node.connect(output);
    return sampler;
  }

  private post(message: SamplerMessage, transfer: Transferable[] = []) {
    this.node.port.postMessage(message, transfer);
  }

  /** Plays `midi` on part `channel` from `when` for `duration` seconds at `velocity` (0 to 1). */
  note(channel: number, midi: number, when: number, duration: number, velocity: number) {
    const key = Math.max(0, Math.min(127, Math.round(midi)));
    const v = Math.max(1, Math.min(127, Math.round(velocity * 127)));
    this.pending.push({ time: when, channel, key, velocity: v }, { time: when + Math.max(0.03, duration), channel, key, velocity: 0 });
    // A scheduler tick's notes go over together.
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(() => {
        this.flushing = false;
        const events = this.pending;
        this.pending = [];
        if (events.length > 0) this.post({ type: 'events', events });
      });
    }
  }

  /** Each part's level, 0 to 1 (0: muted or not soloed). */
  setLevels(levels: number[]) {
    this.post({ type: 'levels', levels });
  }

  /** Forgets every note not yet begun and silences those sounding. */
  hush() {
    this.pending = [];
    this.post({ type: 'hush' });
  }

  close() {
    this.node.port.onmessage = null;
    this.node.disconnect();
  }
}
