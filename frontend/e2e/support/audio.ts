/** Audio files the journeys upload, made in code, and what the page's media elements sound. */
import type { Page } from '@playwright/test';

/** A 16-bit PCM WAV of `frames` frames of `channels` channels, its samples still silent. */
function wav(frames: number, rate: number, channels: number): Buffer {
  const bytes = frames * channels * 2;
  const out = Buffer.alloc(44 + bytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + bytes, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(bytes, 40);
  return out;
}

/**
 * A WAV (16-bit mono, 8 kHz) of a `hz` tone that swells and fades, `seconds` long, peaking at
 * `amplitude` of full scale.
 */
export function toneWav(seconds: number, hz = 440, amplitude = 0.7): Buffer {
  const rate = 8000;
  const samples = Math.floor(seconds * rate);
  const out = wav(samples, rate, 1);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const envelope = Math.sin((t / seconds) * Math.PI);
    out.writeInt16LE(Math.round(Math.sin(t * hz * 2 * Math.PI) * envelope * amplitude * 32767), 44 + i * 2);
  }
  return out;
}

/**
 * A CD-quality WAV (16-bit stereo, 44.1 kHz: 1411 kbit/s, as a home recording is exported) of a
 * slowly beating two-tone chord, `seconds` long.
 */
export function studioWav(seconds: number): Buffer {
  const rate = 44100;
  const frames = Math.floor(seconds * rate);
  const out = wav(frames, rate, 2);
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const left = Math.sin(t * 220 * 2 * Math.PI) * 0.3 + Math.sin(t * 277.2 * 2 * Math.PI) * 0.2;
    const right = Math.sin(t * 220.5 * 2 * Math.PI) * 0.3 + Math.sin(t * 329.6 * 2 * Math.PI) * 0.2;
    out.writeInt16LE(Math.round(left * 32767), 44 + i * 4);
    out.writeInt16LE(Math.round(right * 32767), 46 + i * 4);
  }
  return out;
}

/**
 * A WAV (16-bit mono, 8 kHz), `seconds` long, of a tone sequence: each step sounds `hz` from
 * `from` to the next step's start (the last to the end), a known place for each bar.
 */
export function toneSequenceWav(seconds: number, steps: ReadonlyArray<{ from: number; hz: number }>, amplitude = 0.6): Buffer {
  const rate = 8000;
  const samples = Math.floor(seconds * rate);
  const out = wav(samples, rate, 1);
  let phase = 0;
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const step = [...steps].reverse().find((s) => s.from <= t);
    const hz = step?.hz ?? 0;
    phase += (hz * 2 * Math.PI) / rate;
    out.writeInt16LE(Math.round(Math.sin(phase) * (hz ? amplitude : 0) * 32767), 44 + i * 2);
  }
  return out;
}

/** Keeps every media element the page plays in `window.__media` (the newest last). */
export async function watchMedia(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const media: HTMLMediaElement[] = [];
    (window as unknown as { __media: HTMLMediaElement[] }).__media = media;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!media.includes(this)) media.push(this);
      return play.call(this);
    };
  });
}

/** The strongest frequency in what the playing element sounds now (Hz, interpolated between bins). */
export async function pitch(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const el = (window as unknown as { __media: HTMLMediaElement[] }).__media.at(-1);
    if (!el) return 0;
    const stream = (el as HTMLMediaElement & { captureStream: () => MediaStream }).captureStream();
    // A captured stream gets its audio track a moment after it is asked for (the element's
    // next render of sound): wait for it, or the source has nothing to read.
    if (stream.getAudioTracks().length === 0) {
      await new Promise<void>((resolve) => {
        stream.addEventListener('addtrack', () => resolve(), { once: true });
        setTimeout(resolve, 3000);
      });
    }
    if (stream.getAudioTracks().length === 0) return 0;
    const ctx = new AudioContext();
    const source = ctx.createMediaStreamSource(stream);
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 16384;
    analyser.smoothingTimeConstant = 0;
    source.connect(analyser);
    await new Promise((r) => setTimeout(r, 800));
    const db = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(db);
    let peak = 1;
    for (let i = 2; i < db.length - 1; i++) if ((db[i] ?? -Infinity) > (db[peak] ?? -Infinity)) peak = i;
    const [a, b, c] = [db[peak - 1] ?? 0, db[peak] ?? 0, db[peak + 1] ?? 0];
    const offset = (a - c) / (2 * (a - 2 * b + c) || 1);
    const hz = ((peak + offset) * ctx.sampleRate) / analyser.fftSize;
    await ctx.close();
    return hz;
  });
}

