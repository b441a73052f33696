/**
 * The audio thread's half of the sampled instruments (sampler.ts): SpessaSynth's SoundFont
 * synthesiser (spessasynth_core, Apache-2.0) in an AudioWorklet, playing the notes the page
 * schedules at their audio-clock times, to the sample. Unlike the library's own worklet, what is
 * scheduled can be taken back (a pause, a seek, a tempo change, a loop's wrap): `hush` forgets
 * every note not yet begun and silences those sounding.
 */

import { BasicSoundBank, SoundBankLoader, SpessaSynthProcessor } from 'spessasynth_core';
import type { SamplerEvent, SamplerMessage, SamplerReply } from './sampler-protocol';

// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare const currentTime: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

const QUANTUM = 128;

class SamplerProcessor extends AudioWorkletProcessor {
  private readonly synth = new SpessaSynthProcessor(sampleRate, { initialTime: currentTime });
  /** Notes to begin or end, by time. */
  private queue: SamplerEvent[] = [];
  private ready = false;
  /** The parts' programs: applied once the banks are in (adding a bank resets every channel). */
  private parts: Array<{ program: number; percussion: boolean }> = [];
  private levels: number[] = [];

  constructor() {
    super();
    this.port.onmessage = (e: MessageEvent<SamplerMessage>) => this.receive(e.data);
  }

  private receive(message: SamplerMessage) {
    switch (message.type) {
      case 'banks':
        void this.load(message.banks);
        break;
      case 'parts':
        this.parts = message.parts;
        if (this.ready) this.applyParts();
        break;
      case 'levels':
        this.levels = message.levels;
        if (this.ready) this.applyLevels();
        break;
      case 'events':
        for (const event of message.events) this.insert(event);
        break;
      case 'hush':
        this.queue = [];
        this.synth.stopAllChannels(true);
        break;
    }
  }

  private async load(banks: ArrayBuffer[]) {
    try {
      await this.synth.processorInitialized;
      await BasicSoundBank.isSF3DecoderReady;
      banks.forEach((buffer, i) => this.synth.soundBankManager.addSoundBank(SoundBankLoader.fromArrayBuffer(buffer), `bank-${i}`));
      this.applyParts();
      this.applyLevels();
      this.ready = true;
      this.port.postMessage({ type: 'ready' } satisfies SamplerReply);
    } catch (error) {
      this.port.postMessage({ type: 'failed', reason: String(error) } satisfies SamplerReply);
    }
  }

  /** One MIDI channel per part (more than 16 when the score has more parts), its program or drums. */
  private applyParts() {
    this.parts.forEach((part, channel) => {
      while (this.synth.midiChannels.length <= channel) this.synth.createMIDIChannel();
      this.synth.midiChannels[channel]?.setDrums(part.percussion);
      this.synth.programChange(channel, part.percussion ? 0 : part.program - 1);
    });
  }

  private applyLevels() {
    this.levels.forEach((level, channel) => {
      if (channel < this.synth.midiChannels.length) this.synth.controllerChange(channel, 7, Math.round(Math.max(0, Math.min(1, level)) * 127));
    });
  }

  /** Keeps the queue in time order; events mostly come in order, so this looks from the end. */
  private insert(event: SamplerEvent) {
    let i = this.queue.length;
    while (i > 0 && (this.queue[i - 1]?.time ?? 0) > event.time) i--;
    this.queue.splice(i, 0, event);
  }

  private dispatch(event: SamplerEvent) {
    if (event.velocity > 0) this.synth.noteOn(event.channel, event.key, event.velocity);
    else this.synth.noteOff(event.channel, event.key);
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const left = outputs[0]?.[0];
    const right = outputs[0]?.[1] ?? left;
    if (!left || !right || !this.ready) return true;
    const frames = left.length || QUANTUM;
    let at = 0;
    while (at < frames) {
      const next = this.queue[0];
      // Each event starts at its own sample in this render quantum (a late one at its start).
      const offset = next ? Math.round((next.time - currentTime) * sampleRate) : frames;
      if (next && offset <= at) {
        this.queue.shift();
        this.dispatch(next);
        continue;
      }
      const until = Math.min(frames, offset);
      this.synth.process(left, right, at, until - at);
      at = until;
    }
    return true;
  }
}

registerProcessor('selfsound-sampler', SamplerProcessor);
