import { useEffect, useId, useState } from 'react';
import { PauseIcon, PlayIcon } from '../../components/first-load-icons';
import { Spinner } from '../../components/spinner';
import { usePlayerSelector, usePlayerTime, useTrackSpeed } from '../player';
import { formatDuration } from '../../lib/format';
import type { SoundChoice } from './playback';
import { TRANSPOSITIONS, transpositionOf, type Transposition } from './transposition';
import type { useScorePlayback } from './use-score-playback';
import styles from './score-controls.module.css';

export const SCORE_PLAYER_WORDS = {
  play: 'Play score',
  pause: 'Pause score',
  playRecording: 'Play recording',
  pauseRecording: 'Pause recording',
  withRecording: 'Play with recording',
  withRecordingHint: 'The recording plays and the score follows it.',
  tempo: 'Tempo',
  speed: 'Speed',
  countIn: 'Count-in',
  metronome: 'Metronome',
  parts: 'Parts',
  mute: 'Mute',
  solo: 'Solo',
  failed: 'This score could not be played.',
  hint: 'Click a measure to play from there.',
  startAt: 'Start at bar',
  startAtGo: 'Play from bar',
  noSuchBar: (count: number) => `This score has bars 1 to ${count}.`,
  loop: 'Loop bars',
  loopTo: 'to',
  loopOn: 'Loop these bars',
  loopOff: 'Stop looping',
  pick: 'Tap the bars',
  pickFirst: 'Tap the first bar to loop on the score.',
  pickLast: (bar: number) => `Bar ${bar}: now tap the last bar to loop.`,
  pickCancel: 'Cancel',
  transpose: 'Transpose',
  sound: 'Sound',
  samples: 'Instruments',
  synth: 'Synthesiser',
  samplesLoading: 'Loading instruments…',
  samplesFailed: 'The instruments could not load; the synthesiser plays.',
  badLoop: (count: number) => `Choose bars from 1 to ${count}, the first no later than the last.`,
} as const;

/** The tempo slider's steps, as a share of the score's own tempo (percent): down to 40 % to practise slowly. */
const TEMPO = { min: 40, max: 150, step: 5 } as const;

interface Settings {
  tempo: number;
  /** A `Transposition`'s id. */
  transpose: string;
  countIn: boolean;
  metronome: boolean;
  parts: Array<{ muted: boolean; solo: boolean }>;
}

/** Where this device keeps the sound scores play with (every score's, not one score's). */
export const SOUND_KEY = 'selfsound.score-sound';

function storedSound(): SoundChoice {
  try {
    return localStorage.getItem(SOUND_KEY) === 'synth' ? 'synth' : 'samples';
  } catch {
    return 'samples';
  }
}

/** Where a score's settings are kept on this device (issue 35: a learner's choices stay). */
export const scoreSettingsKey = (url: string) => `selfsound.score:${url}`;

/** The settings this device keeps for the score at `url`, if they fit its parts; else the defaults. */
function storedSettings(url: string, parts: number): Settings {
  const defaults: Settings = {
    tempo: 100,
    transpose: '0',
    countIn: false,
    metronome: false,
    parts: Array.from({ length: parts }, () => ({ muted: false, solo: false })),
  };
  try {
    const kept = JSON.parse(localStorage.getItem(scoreSettingsKey(url)) ?? 'null') as Partial<Settings> | null;
    if (!kept) return defaults;
    const tempo = Number(kept.tempo);
    const keptParts = Array.isArray(kept.parts) && kept.parts.length === parts ? kept.parts : defaults.parts;
    return {
      tempo: Number.isFinite(tempo) ? Math.min(TEMPO.max, Math.max(TEMPO.min, tempo)) : 100,
      transpose: transpositionOf(kept.transpose).id,
      countIn: kept.countIn === true,
      metronome: kept.metronome === true,
      parts: keptParts.map((p) => ({ muted: p?.muted === true, solo: p?.solo === true })),
    };
  } catch {
    return defaults;
  }
}

/** How this device shows and plays the score at `url` (as written when nothing is kept). */
export function storedTransposition(url: string): Transposition {
  return transpositionOf(storedSettings(url, 0).transpose);
}

interface ScoreControlsProps {
  playback: ReturnType<typeof useScorePlayback>;
  /** The parts the score names, in order (for mute and solo). */
  partNames: readonly string[];
  /** How many written measures (bars) the score has. */
  measures: number;
  title: string;
  /** The score's file: what its settings are kept under on this device. */
  url: string;
  /** Told the semitones the notation is to move when Transpose changes (the score is drawn again). */
  onShown: (semitones: number) => void;
}

/**
 * A score's player (issue 20): Play/Pause, where it is, the tempo (40-150 %), a measure of
 * count-in, a metronome, and each part muted or soloed (a learner practises against the others).
 * The settings can be chosen before the first Play; the engine takes them when it arrives, and
 * this device keeps them for the score (its tempo, count-in, metronome and parts).
 */
export function ScoreControls({ playback, partNames, measures, title, url, onShown }: ScoreControlsProps) {
  const { engine, length, status, playing, isCurrent, toggle, following, followed } = playback;
  const id = useId();
  const [settings, setSettings] = useState<Settings>(() => storedSettings(url, partNames.length));
  // Kept on this device for the next visit (storage full or refused: only this visit keeps them).
  useEffect(() => {
    try {
      localStorage.setItem(scoreSettingsKey(url), JSON.stringify(settings));
    } catch {
      // Nothing to do: the settings hold for this visit.
    }
  }, [url, settings]);
  const time = usePlayerTime(isCurrent);
  const [sound, setSound] = useState<SoundChoice>(storedSound);
  useEffect(() => {
    try {
      localStorage.setItem(SOUND_KEY, sound);
    } catch {
      // Only this visit keeps it.
    }
  }, [sound]);
  const samples = engine?.samples() ?? 'off';

  // The engine follows what is chosen here: a new one before it first plays (so the first
  // notes already have the tempo, sound and key chosen), and every change after.
  const { configure } = playback;
  useEffect(() => {
    const apply = (to: NonNullable<typeof engine>) => {
      to.setSound(sound);
      to.setTempo(settings.tempo / 100);
      to.setTranspose(transpositionOf(settings.transpose).heard);
      to.setCountIn(settings.countIn);
      to.setMetronome(settings.metronome);
      settings.parts.forEach((part, index) => to.setPart(index, part));
    };
    configure(apply);
    if (engine) apply(engine);
  }, [configure, engine, settings, sound]);

  const transposition = transpositionOf(settings.transpose);
  useEffect(() => onShown(transposition.shown), [onShown, transposition.shown]);

  // With the recording, the slider is its speed (pitch kept: the browser stretches time); a
  // track starts at its own speed, so the chosen one is given again once it plays.
  const [speed, setSpeed] = useTrackSpeed(followed?.postId ?? null, followed?.index);
  const recordingDuration = usePlayerSelector((s) => (following && isCurrent ? s.duration : 0));

  const setPart = (index: number, change: Partial<Settings['parts'][number]>) =>
    setSettings((s) => ({ ...s, parts: s.parts.map((p, i) => (i === index ? { ...p, ...change } : p)) }));
  // Before the first Play, the length the score's timeline gives at the tempo chosen.
  const scoreDuration = engine?.duration() ?? (length !== null ? length / (settings.tempo / 100) : null);
  const duration = followed ? recordingDuration || followed.durationSeconds : scoreDuration;
  const pauseWord = following ? SCORE_PLAYER_WORDS.pauseRecording : SCORE_PLAYER_WORDS.pause;
  const playWord = following ? SCORE_PLAYER_WORDS.playRecording : SCORE_PLAYER_WORDS.play;

  return (
    <div className={styles.controls} role="group" aria-label={`Player: ${title}`}>
      <div className={styles.main}>
        <button
          type="button"
          className={styles.play}
          onClick={() => void toggle()}
          aria-label={playing ? pauseWord : playWord}
          aria-busy={status === 'loading' || undefined}
        >
          {status === 'loading' ? <Spinner size="sm" label="" /> : playing ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
        </button>
        <span className={styles.time} aria-label="Position">
          {formatDuration(isCurrent ? time : 0, Math.floor)}
          {duration !== null ? ` / ${formatDuration(duration)}` : null}
        </span>
        {playback.canFollow ? (
          <button
            type="button"
            className={styles.follow}
            aria-pressed={following}
            title={SCORE_PLAYER_WORDS.withRecordingHint}
            onClick={() => {
              if (following) playback.chooseFollowing(false);
              else void playback.playWithRecording();
            }}
          >
            {SCORE_PLAYER_WORDS.withRecording}
          </button>
        ) : null}
        <div className={styles.tempo}>
          <label htmlFor={`${id}-tempo`}>{following ? SCORE_PLAYER_WORDS.speed : SCORE_PLAYER_WORDS.tempo}</label>
          <input
            id={`${id}-tempo`}
            type="range"
            min={TEMPO.min}
            max={TEMPO.max}
            step={TEMPO.step}
            value={following ? speed : settings.tempo}
            aria-valuetext={`${following ? speed : settings.tempo}%`}
            onChange={(e) => {
              const value = Number(e.target.value);
              if (following) setSpeed(value);
              else setSettings((s) => ({ ...s, tempo: value }));
            }}
          />
          <output htmlFor={`${id}-tempo`}>{following ? speed : settings.tempo}%</output>
        </div>
      </div>
      <div className={styles.options}>
        <label className={styles.toggle} hidden={following}>
          <input type="checkbox" checked={settings.countIn} onChange={(e) => setSettings((s) => ({ ...s, countIn: e.target.checked }))} />
          <span>{SCORE_PLAYER_WORDS.countIn}</span>
        </label>
        <label className={styles.toggle} hidden={following}>
          <input
            type="checkbox"
            checked={settings.metronome}
            onChange={(e) => setSettings((s) => ({ ...s, metronome: e.target.checked }))}
          />
          <span>{SCORE_PLAYER_WORDS.metronome}</span>
        </label>
        <span className={styles.sound}>
          <label htmlFor={`${id}-transpose`}>{SCORE_PLAYER_WORDS.transpose}</label>
          <select
            id={`${id}-transpose`}
            value={transposition.id}
            onChange={(e) => setSettings((s) => ({ ...s, transpose: transpositionOf(e.target.value).id }))}
          >
            {TRANSPOSITIONS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </span>
        <span className={styles.sound} hidden={following}>
          <label htmlFor={`${id}-sound`}>{SCORE_PLAYER_WORDS.sound}</label>
          <select id={`${id}-sound`} value={sound} onChange={(e) => setSound(e.target.value === 'synth' ? 'synth' : 'samples')}>
            <option value="samples">{SCORE_PLAYER_WORDS.samples}</option>
            <option value="synth">{SCORE_PLAYER_WORDS.synth}</option>
          </select>
          <span role="status" className={styles.soundState} data-samples={samples}>
            {sound === 'samples' && samples === 'loading' ? SCORE_PLAYER_WORDS.samplesLoading : null}
            {sound === 'samples' && samples === 'failed' ? SCORE_PLAYER_WORDS.samplesFailed : null}
          </span>
        </span>
        <StartAtBar measures={measures} onStart={(bar) => playback.playMeasure(bar - 1)} />
        <LoopBars measures={measures} looped={playback.looped} onLoop={playback.loopBars} />
        <PickBars picking={playback.picking} onPick={playback.setPicking} looped={playback.looped !== null} />
        {partNames.length > 1 && !following ? (
          <details className={styles.parts}>
            <summary>
              {SCORE_PLAYER_WORDS.parts} ({partNames.length})
            </summary>
            <ul>
              {partNames.map((name, index) => {
                const part = settings.parts[index] ?? { muted: false, solo: false };
                return (
                  <li key={`${name}-${index}`}>
                    <span className={styles.partName}>{name}</span>
                    <button
                      type="button"
                      className={styles.partButton}
                      aria-pressed={part.muted}
                      aria-label={`${SCORE_PLAYER_WORDS.mute} ${name}`}
                      onClick={() => setPart(index, { muted: !part.muted })}
                    >
                      {SCORE_PLAYER_WORDS.mute}
                    </button>
                    <button
                      type="button"
                      className={styles.partButton}
                      aria-pressed={part.solo}
                      aria-label={`${SCORE_PLAYER_WORDS.solo} ${name}`}
                      onClick={() => setPart(index, { solo: !part.solo })}
                    >
                      {SCORE_PLAYER_WORDS.solo}
                    </button>
                  </li>
                );
              })}
            </ul>
          </details>
        ) : null}
      </div>
      {status === 'error' ? (
        <p className={styles.failed} role="alert">
          {SCORE_PLAYER_WORDS.failed}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Where a keyboard starts playing from a bar (clicking a measure is the pointer's way): bar 1
 * is the score's first written measure.
 */
function StartAtBar({ measures, onStart }: { measures: number; onStart: (bar: number) => Promise<boolean> }) {
  const id = useId();
  const [bar, setBar] = useState('1');
  const [problem, setProblem] = useState<string | null>(null);
  const start = async () => {
    const n = Number(bar);
    const fits = Number.isInteger(n) && n >= 1 && n <= measures;
    setProblem(fits ? null : SCORE_PLAYER_WORDS.noSuchBar(measures));
    if (fits && !(await onStart(n))) setProblem(SCORE_PLAYER_WORDS.failed);
  };
  return (
    <form
      className={styles.startAt}
      // Our words for a bar past the end, not the browser's bubble.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <label htmlFor={id}>{SCORE_PLAYER_WORDS.startAt}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={measures}
        value={bar}
        onChange={(e) => setBar(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      <button type="submit" className={styles.partButton} aria-label={SCORE_PLAYER_WORDS.startAtGo}>
        <PlayIcon size={14} />
      </button>
      <BarProblem id={`${id}-problem`} problem={problem} />
    </form>
  );
}

/**
 * Loop bars A to B (issue 35): two bar numbers and a toggle (or a drag across the score from A
 * to B). On, the player plays them over and over (a count-in before each pass when Count-in is
 * on); off, it plays on from where it is.
 */
function LoopBars({
  measures,
  looped,
  onLoop,
}: {
  measures: number;
  /** The written bars looped now (from 0), however the loop was chosen. */
  looped: { from: number; to: number } | null;
  onLoop: (bars: { from: number; to: number } | null) => Promise<boolean>;
}) {
  const id = useId();
  const [from, setFrom] = useState('1');
  const [to, setTo] = useState(String(Math.min(4, Math.max(1, measures))));
  const on = looped !== null;
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = async () => {
    if (looped) {
      // The bars stay in the fields, however they were chosen (a drag across the score).
      setFrom(String(looped.from + 1));
      setTo(String(looped.to + 1));
      await onLoop(null);
      return;
    }
    const [a, b] = [Number(from), Number(to)];
    const fits = [a, b].every((n) => Number.isInteger(n) && n >= 1 && n <= measures) && a <= b;
    setProblem(fits ? null : SCORE_PLAYER_WORDS.badLoop(measures));
    if (!fits) return;
    if (!(await onLoop({ from: a - 1, to: b - 1 }))) setProblem(SCORE_PLAYER_WORDS.failed);
  };
  const field = (typed: string, set: (v: string) => void, label: string, suffix: string, shown?: number) => (
    <input
      id={`${id}-${suffix}`}
      type="number"
      inputMode="numeric"
      min={1}
      max={measures}
      value={shown !== undefined ? String(shown + 1) : typed}
      aria-label={label}
      disabled={on}
      onChange={(e) => set(e.target.value)}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? `${id}-problem` : undefined}
    />
  );
  return (
    <form
      className={styles.startAt}
      aria-labelledby={`${id}-label`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void toggle();
      }}
    >
      <span id={`${id}-label`}>{SCORE_PLAYER_WORDS.loop}</span>
      {field(from, setFrom, `${SCORE_PLAYER_WORDS.loop}: first`, 'from', looped?.from)}
      <span aria-hidden="true">{SCORE_PLAYER_WORDS.loopTo}</span>
      {field(to, setTo, `${SCORE_PLAYER_WORDS.loop}: last`, 'to', looped?.to)}
      <button type="submit" className={styles.partButton} data-loop={on ? 'on' : 'off'}>
        {on ? SCORE_PLAYER_WORDS.loopOff : SCORE_PLAYER_WORDS.loopOn}
      </button>
      <BarProblem id={`${id}-problem`} problem={problem} />
    </form>
  );
}

/**
 * "Tap the bars" (issue 35): the score's bars A and B chosen by tapping them, one then the
 * other (a touch screen's way, where a drag across the score scrolls it); then they loop.
 */
function PickBars({
  picking,
  onPick,
  looped,
}: {
  picking: { first: number | null } | null;
  onPick: (picking: { first: number | null } | null) => void;
  looped: boolean;
}) {
  if (looped && !picking) return null;
  return (
    <span className={styles.pick}>
      <button type="button" className={styles.partButton} aria-pressed={picking !== null} onClick={() => onPick(picking ? null : { first: null })}>
        {picking ? SCORE_PLAYER_WORDS.pickCancel : SCORE_PLAYER_WORDS.pick}
      </button>
      {picking ? (
        <span role="status" className={styles.pickHint}>
          {picking.first === null ? SCORE_PLAYER_WORDS.pickFirst : SCORE_PLAYER_WORDS.pickLast(picking.first + 1)}
        </span>
      ) : null}
    </span>
  );
}

/** What is wrong with the bars asked for, said where the fields describe it. */
function BarProblem({ id, problem }: { id: string; problem: string | null }) {
  return problem ? (
    <span id={id} className={styles.startAtProblem} role="alert">
      {problem}
    </span>
  ) : null;
}
