/**
 * Transposing a score (issue 35): shown and heard some semitones up or down, or shown as a
 * transposing instrument reads it (a B♭ clarinet's part is written a tone above how it sounds),
 * heard as written. OpenSheetMusicDisplay's TransposeCalculator redraws the notes and the key
 * signatures (score-drawing.ts); the player moves the pitches it plays (score-player.ts).
 */

export interface Transposition {
  id: string;
  label: string;
  /** Semitones the notation moves. */
  shown: number;
  /** Semitones the sound moves. */
  heard: number;
}

const semitones = (n: number): Transposition => ({
  id: n > 0 ? `+${n}` : String(n),
  label: `${n > 0 ? 'Up' : 'Down'} ${Math.abs(n)} semitone${Math.abs(n) === 1 ? '' : 's'}`,
  shown: n,
  heard: n,
});

export const AS_WRITTEN: Transposition = { id: '0', label: 'As written', shown: 0, heard: 0 };

/** What the Transpose menu offers, in its order. */
export const TRANSPOSITIONS: readonly Transposition[] = [
  AS_WRITTEN,
  { id: 'b-flat', label: 'B♭ clarinet, trumpet, tenor sax', shown: 2, heard: 0 },
  { id: 'e-flat', label: 'E♭ alto and baritone sax', shown: 9, heard: 0 },
  { id: 'f', label: 'F horn, cor anglais', shown: 7, heard: 0 },
  ...[1, 2, 3, 4, 5, 6].map(semitones),
  ...[-1, -2, -3, -4, -5, -6].map(semitones),
];

export function transpositionOf(id: unknown): Transposition {
  return TRANSPOSITIONS.find((t) => t.id === id) ?? AS_WRITTEN;
}
