/**
 * The instruments a score is played with: a synthesiser of our own on the Web Audio API, so
 * nothing is downloaded and nothing is licensed from anyone (issue 20). Each General MIDI family
 * has a voice made of oscillators with harmonic spectra of its own (`PeriodicWave`), filters and
 * envelopes:
 * - piano: a bright string spectrum through a low-pass filter that closes as the note decays
 *   (low notes ring longer), two strings a few cents apart beating, and a hammer's knock;
 * - plucked strings (guitar, harp): the same idea, shorter and softer;
 * - bowed strings, brass, reeds, flutes, organ, voices, pads: sustained, with attack and release
 *   shaped per family, vibrato where players use it, and a breath for flutes;
 * - mallets: pure tones that decay quickly;
 * - drums (unpitched parts, MIDI channel 10): noise and pitch sweeps by drum.
 *
 * Every part has its own channel (a gain: muting and soloing set it), all of them go to one
 * master gain (the player's volume) and an analyser, which the tests read.
 */

/** A voice: how one family of instruments sounds. */
interface Voice {
  /** Harmonic amplitudes (1 = the fundamental). */
  harmonics: number[];
  /** Seconds. */
  attack: number;
  /** The level a held note settles to (0 to 1), and how fast (seconds to get most of the way). */
  sustain: number;
  decay: number;
  release: number;
  /** Low-pass cutoff as a multiple of the note's frequency (brighter when louder). */
  brightness: number;
  /** Whether the cutoff falls as the note sounds (struck and plucked strings). */
  darkens: boolean;
  /** Vibrato depth in cents and its delay in seconds; 0: none. */
  vibrato: number;
  /** A second oscillator, detuned by this many cents (0: none). */
  detune: number;
  /** A knock (struck), a pluck or a breath of noise at the start: its level. */
  noise: number;
  /** How loud the voice is against the others. */
  gain: number;
}

const PIANO: Voice = {
  harmonics: [1, 0.62, 0.4, 0.28, 0.2, 0.15, 0.11, 0.08, 0.06, 0.045, 0.034, 0.025],
  attack: 0.004,
  sustain: 0,
  decay: 2.6,
  release: 0.22,
  brightness: 9,
  darkens: true,
  vibrato: 0,
  detune: 4,
  noise: 0.12,
  gain: 0.55,
};

const VOICES: Record<string, Voice> = {
  piano: PIANO,
  mallet: { ...PIANO, harmonics: [1, 0, 0, 0.3, 0, 0, 0, 0, 0, 0.08], decay: 1.1, detune: 0, noise: 0.05, brightness: 14 },
  organ: {
    harmonics: [1, 0.8, 0.6, 0.45, 0, 0.35, 0, 0.3, 0, 0, 0, 0.2],
    attack: 0.015,
    sustain: 0.85,
    decay: 0.1,
    release: 0.08,
    brightness: 12,
    darkens: false,
    vibrato: 0,
    detune: 2,
    noise: 0,
    gain: 0.32,
  },
  pluck: { ...PIANO, harmonics: [1, 0.5, 0.38, 0.22, 0.18, 0.1, 0.08, 0.05], decay: 1.5, release: 0.12, detune: 3, noise: 0.08, brightness: 7 },
  bass: {
    harmonics: [1, 0.45, 0.22, 0.1, 0.06],
    attack: 0.008,
    sustain: 0.35,
    decay: 0.9,
    release: 0.1,
    brightness: 5,
    darkens: true,
    vibrato: 0,
    detune: 0,
    noise: 0.04,
    gain: 0.7,
  },
  strings: {
    harmonics: [1, 0.55, 0.42, 0.33, 0.27, 0.22, 0.18, 0.15, 0.12, 0.1, 0.08, 0.07],
    attack: 0.09,
    sustain: 0.85,
    decay: 0.3,
    release: 0.25,
    brightness: 6,
    darkens: false,
    vibrato: 14,
    detune: 6,
    noise: 0,
    gain: 0.34,
  },
  brass: {
    harmonics: [1, 0.8, 0.7, 0.55, 0.45, 0.36, 0.28, 0.2, 0.15, 0.1],
    attack: 0.05,
    sustain: 0.8,
    decay: 0.2,
    release: 0.12,
    brightness: 7,
    darkens: false,
    vibrato: 6,
    detune: 3,
    noise: 0.02,
    gain: 0.34,
  },
  reed: {
    harmonics: [1, 0.1, 0.6, 0.08, 0.38, 0.06, 0.25, 0.04, 0.15],
    attack: 0.035,
    sustain: 0.85,
    decay: 0.2,
    release: 0.1,
    brightness: 6,
    darkens: false,
    vibrato: 8,
    detune: 0,
    noise: 0.03,
    gain: 0.38,
  },
  flute: {
    harmonics: [1, 0.25, 0.08, 0.04],
    attack: 0.06,
    sustain: 0.85,
    decay: 0.2,
    release: 0.12,
    brightness: 8,
    darkens: false,
    vibrato: 10,
    detune: 0,
    noise: 0.06,
    gain: 0.5,
  },
  voice: {
    harmonics: [1, 0.7, 0.45, 0.5, 0.3, 0.12, 0.08, 0.06, 0.05],
    attack: 0.08,
    sustain: 0.85,
    decay: 0.25,
    release: 0.2,
    brightness: 4,
    darkens: false,
    vibrato: 18,
    detune: 5,
    noise: 0.01,
    gain: 0.42,
  },
  lead: {
    harmonics: [1, 0.5, 0.33, 0.25, 0.2, 0.17, 0.14, 0.12],
    attack: 0.01,
    sustain: 0.75,
    decay: 0.2,
    release: 0.1,
    brightness: 10,
    darkens: false,
    vibrato: 6,
    detune: 7,
    noise: 0,
    gain: 0.3,
  },
  pad: {
    harmonics: [1, 0.4, 0.25, 0.15, 0.1, 0.06],
    attack: 0.3,
    sustain: 0.8,
    decay: 0.5,
    release: 0.5,
    brightness: 5,
    darkens: false,
    vibrato: 4,
    detune: 9,
    noise: 0,
    gain: 0.32,
  },
};

/** The voice of a General MIDI program (1-128). */
export function voiceName(program: number): string {
  const family = Math.floor((Math.min(128, Math.max(1, program)) - 1) / 8);
  switch (family) {
    case 0:
      return 'piano';
    case 1:
    case 14:
      return 'mallet';
    case 2:
      return 'organ';
    case 3:
    case 13:
      return 'pluck';
    case 4:
      return 'bass';
    case 5:
      // Harp (47) is plucked; timpani (48) struck.
      return program === 47 ? 'pluck' : program === 48 ? 'bass' : 'strings';
    case 6:
      return program >= 53 && program <= 55 ? 'voice' : 'strings';
    case 7:
      return 'brass';
    case 8:
      return 'reed';
    case 9:
      return 'flute';
    case 10:
      return 'lead';
    default:
      return 'pad';
  }
}

function frequency(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/** One part's sound: its voice, and the channel its notes go through. */
export interface Channel {
  voice: Voice;
  percussion: boolean;
  gain: GainNode;
  /** The part's own level (the score's `<volume>`). */
  level: number;
}

export class Synth {
  readonly master: GainNode;
  readonly analyser: AnalyserNode;
  private readonly waves = new Map<string, PeriodicWave>();
  private noiseBuffer: AudioBuffer | null = null;
  private readonly sounding = new Set<AudioScheduledSourceNode>();

  constructor(readonly context: BaseAudioContext) {
    this.master = context.createGain();
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 2048;
    // A gentle limiter, so many loud notes together never clip.
    const limiter = context.createDynamicsCompressor();
    limiter.threshold.value = -10;
    limiter.ratio.value = 6;
    this.master.connect(limiter);
    limiter.connect(this.analyser);
    this.analyser.connect(context.destination);
  }

  /** A channel for a part played by `program` (or a drum kit). */
  channel(program: number, percussion: boolean, level: number): Channel {
    const gain = this.context.createGain();
    gain.connect(this.master);
    const name = voiceName(program);
    return { voice: VOICES[name] ?? PIANO, percussion, gain, level };
  }

  private wave(voice: Voice): PeriodicWave {
    const key = voice.harmonics.join(',');
    let wave = this.waves.get(key);
    if (!wave) {
      const real = new Float32Array(voice.harmonics.length + 1);
      const imag = new Float32Array(voice.harmonics.length + 1);
      voice.harmonics.forEach((a, i) => {
        imag[i + 1] = a;
      });
      wave = this.context.createPeriodicWave(real, imag);
      this.waves.set(key, wave);
    }
    return wave;
  }

  private noise(): AudioBuffer {
    if (!this.noiseBuffer) {
      const length = Math.floor(this.context.sampleRate * 0.5);
      const buffer = this.context.createBuffer(1, length, this.context.sampleRate);
      const data = buffer.getChannelData(0);
      // A fixed pseudo-random sequence: the same knock every time.
      let seed = 22222;
      for (let i = 0; i < length; i++) {
        seed = (seed * 16807) % 2147483647;
        data[i] = (seed / 2147483647) * 2 - 1;
      }
      this.noiseBuffer = buffer;
    }
    return this.noiseBuffer;
  }

  private track(node: AudioScheduledSourceNode) {
    this.sounding.add(node);
    node.onended = () => this.sounding.delete(node);
  }

  /** Plays `midi` on `channel` from `when` for `duration` seconds at `velocity` (0 to 1). */
  note(channel: Channel, midi: number, when: number, duration: number, velocity: number) {
    if (channel.percussion) {
      this.drum(channel, midi, when, velocity);
      return;
    }
    const ctx = this.context;
    const v = channel.voice;
    const f = frequency(midi);
    const loud = Math.max(0.05, Math.min(1, velocity));
    const peak = v.gain * channel.level * loud ** 1.4;
    // Struck and plucked notes ring on their own: low notes longer than high ones.
    const ring = v.sustain === 0 ? v.decay * Math.max(0.35, Math.min(1.8, 2 ** ((60 - midi) / 24))) : v.decay;
    const held = Math.max(0.03, duration);
    const end = when + held;
    const stop = end + v.release * 4;

    const amp = ctx.createGain();
    amp.gain.setValueAtTime(0, when);
    amp.gain.linearRampToValueAtTime(peak, when + v.attack);
    if (v.sustain === 0) {
      amp.gain.setTargetAtTime(0, when + v.attack, ring / 3);
    } else {
      amp.gain.setTargetAtTime(peak * v.sustain, when + v.attack, v.decay / 3);
    }
    // The release starts where the decay has come to by then (events of one kind chain).
    amp.gain.setTargetAtTime(0, end, v.release / 3);

    const filter = ctx.createBiquadFilter();
    filter.type = 'lowpass';
    filter.Q.value = 0.7;
    const cutoff = Math.min(ctx.sampleRate / 2 - 100, f * v.brightness * (0.45 + 0.75 * loud) + 200);
    filter.frequency.setValueAtTime(cutoff, when);
    if (v.darkens) filter.frequency.setTargetAtTime(Math.min(cutoff, f * 1.6 + 150), when + v.attack, ring / 2.5);
    filter.connect(amp);
    amp.connect(channel.gain);

    const wave = this.wave(v);
    const oscillators: OscillatorNode[] = [];
    for (const cents of v.detune ? [-v.detune / 2, v.detune / 2] : [0]) {
      const osc = ctx.createOscillator();
      osc.setPeriodicWave(wave);
      osc.frequency.value = f;
      osc.detune.value = cents;
      osc.connect(filter);
      oscillators.push(osc);
    }
    if (v.vibrato > 0 && held > 0.25) {
      const lfo = ctx.createOscillator();
      const depth = ctx.createGain();
      lfo.frequency.value = 5.2;
      depth.gain.setValueAtTime(0, when);
      depth.gain.linearRampToValueAtTime(v.vibrato, when + Math.min(0.6, held * 0.6));
      lfo.connect(depth);
      for (const osc of oscillators) depth.connect(osc.detune);
      lfo.start(when);
      lfo.stop(stop);
      this.track(lfo);
    }
    for (const osc of oscillators) {
      osc.start(when);
      osc.stop(stop);
      this.track(osc);
    }
    if (v.noise > 0) this.knock(channel.gain, when, f, v.noise * peak, v.sustain === 0 ? 0.025 : 0.08);
  }

  /** A short burst of filtered noise: a hammer's knock, a pluck, a breath. */
  private knock(into: AudioNode, when: number, f: number, level: number, length: number) {
    const ctx = this.context;
    const source = ctx.createBufferSource();
    source.buffer = this.noise();
    const band = ctx.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = Math.min(ctx.sampleRate / 2 - 100, Math.max(800, f * 4));
    band.Q.value = 1.2;
    const env = ctx.createGain();
    env.gain.setValueAtTime(level, when);
    env.gain.exponentialRampToValueAtTime(0.0001, when + length);
    source.connect(band).connect(env).connect(into);
    source.start(when, Math.random() * 0.3);
    source.stop(when + length + 0.01);
    this.track(source);
  }

  /** A General MIDI drum (35-81): kicks and toms as falling tones, the rest as shaped noise. */
  drum(channel: Channel, key: number, when: number, velocity: number) {
    const ctx = this.context;
    const level = 0.9 * channel.level * Math.max(0.05, Math.min(1, velocity));
    const out = ctx.createGain();
    out.connect(channel.gain);
    const tone = (from: number, to: number, length: number, gain: number) => {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(from, when);
      osc.frequency.exponentialRampToValueAtTime(to, when + length);
      const env = ctx.createGain();
      env.gain.setValueAtTime(gain, when);
      env.gain.exponentialRampToValueAtTime(0.0001, when + length);
      osc.connect(env).connect(out);
      osc.start(when);
      osc.stop(when + length + 0.01);
      this.track(osc);
    };
    const hiss = (type: BiquadFilterType, f: number, length: number, gain: number) => {
      const source = ctx.createBufferSource();
      source.buffer = this.noise();
      const filter = ctx.createBiquadFilter();
      filter.type = type;
      filter.frequency.value = f;
      const env = ctx.createGain();
      env.gain.setValueAtTime(gain, when);
      env.gain.exponentialRampToValueAtTime(0.0001, when + length);
      source.connect(filter).connect(env).connect(out);
      source.start(when);
      source.stop(when + length + 0.01);
      this.track(source);
    };
    if (key === 35 || key === 36) tone(150, 45, 0.35, level);
    else if (key === 38 || key === 40 || key === 37 || key === 39) {
      tone(220, 160, 0.12, level * 0.5);
      hiss('highpass', 1500, 0.18, level * 0.6);
    } else if ([41, 43, 45, 47, 48, 50].includes(key)) {
      const f = 80 + (key - 41) * 18;
      tone(f * 1.6, f, 0.4, level * 0.8);
    } else if (key === 42 || key === 44) hiss('highpass', 7000, 0.06, level * 0.35);
    else if (key === 46) hiss('highpass', 7000, 0.3, level * 0.35);
    else if ([49, 51, 52, 53, 55, 57, 59].includes(key)) hiss('highpass', 5000, 1.2, level * 0.3);
    else hiss('bandpass', 2500, 0.12, level * 0.5);
  }

  /** A metronome click: higher on the first beat of a measure. */
  click(when: number, accent: boolean) {
    const ctx = this.context;
    const osc = ctx.createOscillator();
    osc.type = 'square';
    osc.frequency.value = accent ? 1760 : 1320;
    const env = ctx.createGain();
    env.gain.setValueAtTime(accent ? 0.22 : 0.14, when);
    env.gain.exponentialRampToValueAtTime(0.0001, when + 0.04);
    osc.connect(env).connect(this.master);
    osc.start(when);
    osc.stop(when + 0.05);
    this.track(osc);
  }

  /** Silences everything scheduled or sounding. */
  hush() {
    for (const node of this.sounding) {
      try {
        node.stop();
      } catch {
        // Not started yet in some browsers: it will not start now either once disconnected.
      }
      node.disconnect();
    }
    this.sounding.clear();
  }
}
