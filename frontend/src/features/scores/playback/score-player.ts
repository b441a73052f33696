/**
 * Plays a score's timeline (timeline.ts) through the synthesiser (synth.ts): notes are
 * scheduled on the audio clock a moment ahead (a look-ahead scheduler, so timing never depends
 * on the page's timers), at a chosen share of the score's tempo, with parts muted or soloed, an
 * optional metronome and a measure of count-in. It is the app player's `MediaEngine`, so the
 * now-playing bar, the media keys and "one medium at a time" drive it as they drive a track.
 */

import type { MediaEngine, MediaEvent } from '../../player';
import type { Sampler } from './sampler';
import { Synth, type Channel } from './synth';
import { quarterAt, secondsAt, tempoAt } from './tempo-map';
import { measureAt, type Timeline } from './timeline';

/**
 * How far ahead notes are scheduled, and how often the scheduler looks. Half a second: a page
 * busy for less than that (a layout, a garbage collection) loses no note and no loop's wrap;
 * what is scheduled is hushed at once on a pause, a seek or a tempo change.
 */
const LOOK_AHEAD_SECONDS = 0.5;
const TICK_MS = 25;
/** Between pressing Play and the first note, so the first notes are not late. */
const START_DELAY = 0.06;

/** A share of the score's tempo: down to 40 % to practise slowly (issue 35). */
export const TEMPO_RANGE = { min: 0.4, max: 1.5 } as const;

/** What plays the parts: sampled instruments (once loaded; the synthesiser until then), or the synthesiser. */
export type SoundChoice = 'samples' | 'synth';
/** Where the sampled instruments are: not asked for, loading, playing, or not available. */
export type SamplesState = 'off' | 'loading' | 'ready' | 'failed';

export interface PartControl {
  muted: boolean;
  solo: boolean;
}

type Listener = () => void;

export class ScorePlayer implements MediaEngine {
  private context: AudioContext | null = null;
  private synth: Synth | null = null;
  private channels: Channel[] = [];
  private readonly controls: PartControl[];
  private rate = 1;
  private metronomeOn = false;
  private countInOn = false;
  private volume = 1;
  private mutedAll = false;
  private choice: SoundChoice = 'samples';
  /** Semitones every pitched note is moved (issue 35). */
  private shift = 0;
  private sampler: Sampler | null = null;
  private samplesState: SamplesState = 'off';
  private samplesAbort: AbortController | null = null;

  /** Where playback is (quarters) while paused; where it started while playing. */
  private from = 0;
  /** Audio-clock second at which quarter `from` sounds (after the count-in). */
  private startAt = 0;
  private playing = false;
  private timer: number | undefined;
  private timeTimer: number | undefined;
  /** The next note, beat and measure to schedule. */
  private nextNote = 0;
  private nextBeat = 0;
  private beats: Array<{ q: number; accent: boolean }> = [];
  /** Bars looped (quarters from, to), or none. */
  private loop: { from: number; to: number } | null = null;
  /** Until the audio clock reaches `at`, the pass before a loop's wrap still sounds from its anchor. */
  private before: { at: number; from: number; startAt: number } | null = null;
  private readonly listeners = new Set<(event: MediaEvent) => void>();
  private readonly changeListeners = new Set<Listener>();
  private changes = 0;

  constructor(
    readonly timeline: Timeline,
    private readonly createContext: () => AudioContext = () => new AudioContext({ latencyHint: 'interactive' }),
  ) {
    this.controls = timeline.parts.map(() => ({ muted: false, solo: false }));
    this.beats = beatsOf(timeline);
  }

  // --- MediaEngine ----------------------------------------------------------------------------

  play(): void {
    if (this.playing) return;
    const ctx = this.ensureContext();
    void ctx.resume();
    if (this.from >= this.timeline.length) this.from = 0;
    if (this.loop && (this.from < this.loop.from || this.from >= this.loop.to)) this.from = this.loop.from;
    this.playing = true;
    this.schedule(this.countInOn);
    this.emit('play');
    this.changed();
  }

  pause(): void {
    if (!this.playing) return;
    this.from = this.quarter();
    this.halt();
    void this.context?.suspend();
    this.emit('pause');
    this.changed();
  }

  seek(seconds: number): void {
    this.seekQuarter(quarterAt(this.timeline.tempos, Math.max(0, seconds), this.rate));
  }

  currentTime(): number {
    return secondsAt(this.timeline.tempos, this.quarter(), this.rate);
  }

  duration(): number {
    return secondsAt(this.timeline.tempos, this.timeline.length, this.rate);
  }

  setVolume(volume: number, muted: boolean): void {
    this.volume = volume;
    this.mutedAll = muted;
    this.applyGains();
  }

  stop(): void {
    this.halt();
    this.from = 0;
    this.samplesAbort?.abort();
    this.samplesAbort = null;
    this.sampler?.close();
    this.sampler = null;
    this.samplesState = 'off';
    void this.context?.close();
    this.context = null;
    this.synth = null;
    this.channels = [];
    this.changed();
  }

  onEvent(listener: (event: MediaEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // --- The score's own controls ---------------------------------------------------------------

  /** Anything shown changed: playing, tempo, parts, metronome. */
  subscribe(listener: Listener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Counts the changes told to `subscribe`rs (a snapshot for React). */
  version(): number {
    return this.changes;
  }

  isPlaying(): boolean {
    return this.playing;
  }

  /** The quarter sounding now (during a count-in, where it will start). */
  quarter(): number {
    if (!this.playing || !this.context) return this.from;
    const now = this.context.currentTime;
    // Scheduled ahead, the next pass of a loop is anchored before the last one has ended.
    const anchor = this.before && now < this.before.at ? this.before : { from: this.from, startAt: this.startAt };
    const elapsed = now - anchor.startAt;
    if (elapsed <= 0) return anchor.from;
    const base = secondsAt(this.timeline.tempos, anchor.from, this.rate);
    const end = this.loop && anchor === this.before ? this.loop.to : this.timeline.length;
    return Math.min(end, quarterAt(this.timeline.tempos, base + elapsed, this.rate));
  }

  /** The bars looped, as quarters of the performance (from, to), or null. */
  looped(): { from: number; to: number } | null {
    return this.loop;
  }

  /**
   * Loops quarters `from` to `to` of the performance (a count-in before each pass when it is
   * on), or stops looping (null). Playing outside them, it goes on from `from`.
   */
  setLoop(loop: { from: number; to: number } | null): void {
    const from = loop ? Math.max(0, Math.min(this.timeline.length, loop.from)) : 0;
    const to = loop ? Math.max(0, Math.min(this.timeline.length, loop.to)) : 0;
    // Where it is now, read before the pass being heard is forgotten.
    const at = this.quarter();
    this.loop = loop && to > from ? { from, to } : null;
    this.before = null;
    if (this.loop && (at < this.loop.from || at >= this.loop.to)) this.seekQuarter(this.loop.from);
    else if (this.playing) this.seekQuarter(at);
    this.changed();
  }

  /** The performed measure sounding now. */
  measure(): number {
    return measureAt(this.timeline, this.quarter());
  }

  seekQuarter(q: number): void {
    let to = Math.max(0, Math.min(this.timeline.length, q));
    // While looping, playing stays within the loop: a bar outside it starts the loop again.
    if (this.loop && (to < this.loop.from || to >= this.loop.to)) to = this.loop.from;
    if (this.playing) {
      this.halt(false);
      this.from = to;
      this.schedule(false);
    } else {
      this.from = to;
    }
    this.emit('seeked');
    this.changed();
  }

  tempo(): number {
    return this.rate;
  }

  /** A share of the score's tempo, 0.4 to 1.5. */
  setTempo(rate: number): void {
    const next = Math.min(TEMPO_RANGE.max, Math.max(TEMPO_RANGE.min, rate));
    if (next === this.rate) return;
    this.reanchor(() => {
      this.rate = next;
    });
    this.emit('durationchange');
    this.changed();
  }

  parts(): readonly PartControl[] {
    return this.controls;
  }

  setPart(index: number, change: Partial<PartControl>): void {
    const part = this.controls[index];
    if (!part) return;
    Object.assign(part, change);
    this.applyGains();
    this.changed();
  }

  metronome(): boolean {
    return this.metronomeOn;
  }

  setMetronome(on: boolean): void {
    this.metronomeOn = on;
    if (this.playing) {
      // Beats already scheduled stay; from here on the new choice holds (from the next pass's
      // start when a loop's wrap is already scheduled).
      const q = this.before ? this.from : this.quarter() + 0.01;
      this.nextBeat = this.beats.findIndex((b) => b.q >= q);
      if (this.nextBeat < 0) this.nextBeat = this.beats.length;
    }
    this.changed();
  }

  countIn(): boolean {
    return this.countInOn;
  }

  setCountIn(on: boolean): void {
    this.countInOn = on;
    this.changed();
  }

  transpose(): number {
    return this.shift;
  }

  /** Moves every pitched part by `semitones` (drums stay), heard at once. */
  setTranspose(semitones: number): void {
    const next = Math.max(-24, Math.min(24, Math.round(semitones)));
    if (next === this.shift) return;
    this.reanchor(() => {
      this.shift = next;
    });
    this.changed();
  }

  sound(): SoundChoice {
    return this.choice;
  }

  /** Where the sampled instruments are (`off` until a first play asks for them). */
  samples(): SamplesState {
    return this.samplesState;
  }

  /** Sampled instruments or the synthesiser; a change is heard at once. */
  setSound(choice: SoundChoice): void {
    if (choice === this.choice) return;
    this.reanchor(() => {
      this.choice = choice;
    });
    if (choice === 'samples' && this.context) this.loadSamples(this.context);
    if (choice === 'synth' && this.samplesState === 'loading') {
      // Not wanted any more: the files stop coming.
      this.samplesAbort?.abort();
      this.samplesAbort = null;
      this.samplesState = 'off';
    }
    this.changed();
  }

  /** The analyser all sound passes through (the tests read it). */
  analyser(): AnalyserNode | null {
    return this.synth?.analyser ?? null;
  }

  // --- Inside ---------------------------------------------------------------------------------

  private ensureContext(): AudioContext {
    if (this.context && this.synth) return this.context;
    const ctx = this.createContext();
    const synth = new Synth(ctx);
    this.context = ctx;
    this.synth = synth;
    this.channels = this.timeline.parts.map((p) => synth.channel(p.program, p.percussion, p.volume));
    this.applyGains();
    if (this.choice === 'samples') this.loadSamples(ctx);
    return ctx;
  }

  /** Loads the sampled instruments; meanwhile, and if they cannot load, the synthesiser plays. */
  private loadSamples(ctx: AudioContext) {
    const synth = this.synth;
    if (this.samplesState === 'loading' || this.samplesState === 'ready' || !synth) return;
    if (typeof AudioWorkletNode === 'undefined') {
      this.samplesState = 'failed';
      return;
    }
    const abort = new AbortController();
    this.samplesAbort = abort;
    this.samplesState = 'loading';
    import('./sampler')
      .then(({ Sampler, samplesBuilt }) => {
        if (!samplesBuilt()) throw new Error('This build has no sampled instruments.');
        return Sampler.load(ctx, this.timeline.parts, synth.master, abort.signal);
      })
      .then(
        (sampler) => {
          if (abort.signal.aborted || ctx !== this.context) {
            sampler.close();
            return;
          }
          this.sampler = sampler;
          this.samplesState = 'ready';
          sampler.onFailure = () => {
            if (this.sampler !== sampler) return;
            console.warn('The sampled instruments stopped; the synthesiser plays.');
            this.reanchor(() => {
              this.sampler = null;
              this.samplesState = 'failed';
            });
            this.changed();
          };
          this.applyGains();
          // What the synthesiser was playing goes on with the instruments from here; during a
          // count-in the clicks go on, and the notes not yet scheduled go to the instruments.
          if (this.choice === 'samples' && ctx.currentTime >= this.startAt) this.reanchor(() => undefined);
          this.changed();
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          console.warn('Sampled instruments did not load; the synthesiser plays.', error);
          this.samplesState = 'failed';
          this.changed();
        },
      );
    this.changed();
  }

  /** Plays a timeline note on its part, from `when` for `duration` seconds. */
  private playNote(n: Timeline['notes'][number], when: number, duration: number) {
    const midi = this.timeline.parts[n.part]?.percussion ? n.midi : n.midi + this.shift;
    if (this.sampler && this.choice === 'samples') {
      this.sampler.note(n.part, midi, when, duration, n.velocity);
      return;
    }
    const channel = this.channels[n.part];
    if (channel && this.synth) this.synth.note(channel, midi, when, duration, n.velocity);
  }

  /** Applies `change` where playback is now, scheduling again from there if it is playing. */
  private reanchor(change: () => void) {
    const at = this.quarter();
    if (this.playing) this.halt(false);
    change();
    this.from = at;
    if (this.playing) this.schedule(false);
  }

  /** Whether part `i` is heard: not muted, and soloed when any part is. */
  private partOn(i: number): boolean {
    const c = this.controls[i];
    return !!c && !c.muted && (!this.controls.some((o) => o.solo) || c.solo);
  }

  private applyGains() {
    this.channels.forEach((channel, i) => {
      const on = this.partOn(i);
      channel.gain.gain.value = on ? 1 : 0;
    });
    this.sampler?.setLevels(this.timeline.parts.map((p, i) => (this.partOn(i) ? p.volume : 0)));
    if (this.synth) this.synth.master.gain.value = this.mutedAll ? 0 : this.volume;
  }

  /** Stops what is scheduled; `stopped`: playback ends too (not a re-anchoring). */
  private halt(stopped = true) {
    window.clearInterval(this.timer);
    window.clearInterval(this.timeTimer);
    this.timer = undefined;
    this.timeTimer = undefined;
    this.synth?.hush();
    this.sampler?.hush();
    this.before = null;
    if (stopped) this.playing = false;
  }

  /** Starts scheduling from `this.from`, after a measure of count-in if asked. */
  private schedule(countIn: boolean) {
    const ctx = this.context;
    const synth = this.synth;
    if (!ctx || !synth) return;
    let start = ctx.currentTime + START_DELAY;
    if (countIn) start += this.scheduleCountIn(synth, start);
    this.startAt = start;
    const notes = this.timeline.notes;
    // Notes that began before `from` and still sound there sound from there.
    this.nextNote = firstAtOrAfter(notes, this.from);
    const end = this.loop?.to ?? Infinity;
    for (let i = 0; i < this.nextNote; i++) {
      const n = notes[i];
      if (!n || n.start + n.duration <= this.from + 0.05) continue;
      const stop = this.seconds(Math.min(n.start + n.duration, end));
      this.playNote(n, start, stop - this.seconds(this.from));
    }
    this.nextBeat = this.beats.findIndex((b) => b.q >= this.from - 1e-6);
    if (this.nextBeat < 0) this.nextBeat = this.beats.length;
    this.tick();
    this.timer = window.setInterval(() => this.tick(), TICK_MS);
    this.timeTimer = window.setInterval(() => this.emit('time'), 250);
  }

  /** A measure of clicks before `start`, in the time and tempo where playback starts. */
  private scheduleCountIn(synth: Synth, start: number): number {
    const measure = this.timeline.measures[measureAt(this.timeline, this.from)];
    const beats = Math.max(1, Math.min(12, measure?.beats ?? 4));
    const beatLength = measure?.beatLength ?? 1;
    const bpm = tempoAt(this.timeline.tempos, this.from) * this.rate;
    const beatSeconds = (beatLength * 60) / bpm;
    for (let b = 0; b < beats; b++) synth.click(start + b * beatSeconds, b === 0);
    return beats * beatSeconds;
  }

  /** Seconds from the start of the piece to quarter `q` at the current rate. */
  private seconds(q: number): number {
    return secondsAt(this.timeline.tempos, q, this.rate);
  }

  private tick() {
    const ctx = this.context;
    const synth = this.synth;
    if (!ctx || !synth || !this.playing) return;
    const base = this.seconds(this.from);
    const horizon = ctx.currentTime + LOOK_AHEAD_SECONDS - this.startAt + base;
    const notes = this.timeline.notes;
    // A loop's pass ends at its last bar's end: nothing after it, and no note rings past it.
    const end = this.loop?.to ?? Infinity;
    while (this.nextNote < notes.length) {
      const n = notes[this.nextNote];
      if (!n || n.start >= end - 1e-9) break;
      const at = this.seconds(n.start);
      if (at > horizon) break;
      const when = this.startAt + at - base;
      const stop = this.seconds(Math.min(n.start + n.duration, end));
      this.playNote(n, Math.max(when, ctx.currentTime), stop - at);
      this.nextNote++;
    }
    if (this.metronomeOn) {
      while (this.nextBeat < this.beats.length) {
        const beat = this.beats[this.nextBeat];
        if (!beat || beat.q >= end - 1e-9) break;
        const at = this.seconds(beat.q);
        if (at > horizon) break;
        synth.click(Math.max(this.startAt + at - base, ctx.currentTime), beat.accent);
        this.nextBeat++;
      }
    }
    if (this.loop && this.seconds(this.loop.to) <= horizon) {
      this.wrap(synth, this.startAt + this.seconds(this.loop.to) - base);
      return;
    }
    if (!this.loop && this.quarter() >= this.timeline.length) this.ended();
  }

  /** The next pass of the loop, from its first bar at audio time `at` (after a count-in if on). */
  private wrap(synth: Synth, at: number) {
    const loop = this.loop;
    const ctx = this.context;
    if (!loop || !ctx) return;
    // A page held up past the end of the pass: the next starts now rather than in the past.
    at = Math.max(at, ctx.currentTime + START_DELAY);
    this.before = { at, from: this.from, startAt: this.startAt };
    this.from = loop.from;
    this.startAt = at + (this.countInOn ? this.scheduleCountIn(synth, at) : 0);
    this.nextNote = firstAtOrAfter(this.timeline.notes, loop.from);
    this.nextBeat = this.beats.findIndex((b) => b.q >= loop.from - 1e-6);
    if (this.nextBeat < 0) this.nextBeat = this.beats.length;
  }

  private ended() {
    this.halt();
    this.from = 0;
    void this.context?.suspend();
    this.emit('ended');
    this.changed();
  }

  private emit(event: MediaEvent) {
    for (const listener of [...this.listeners]) listener(event);
  }

  private changed() {
    this.changes++;
    for (const listener of [...this.changeListeners]) listener();
  }
}

/** The index of the first note starting at or after quarter `q`. */
function firstAtOrAfter(notes: Timeline['notes'], q: number): number {
  let lo = 0;
  let hi = notes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((notes[mid]?.start ?? 0) < q - 1e-9) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every beat of the performance, the first of each measure accented. */
function beatsOf(timeline: Timeline): Array<{ q: number; accent: boolean }> {
  const beats: Array<{ q: number; accent: boolean }> = [];
  for (const m of timeline.measures) {
    const step = m.beatLength > 0 ? m.beatLength : 1;
    // A pickup measure's beats count back from its end, as they are felt.
    const count = Math.max(1, Math.round(m.length / step));
    const first = m.start + m.length - count * step;
    for (let b = 0; b < count; b++) {
      const q = first + b * step;
      if (q >= m.start - 1e-9) beats.push({ q, accent: b === 0 && count === m.beats });
    }
  }
  return beats;
}
