/**
 * The parts a song's lyrics are made of (spec §3 Lyrics post, §9: at most ten), as the lyrics
 * form and the post editor offer them.
 */
export const LYRICS_MAX_PARTS = 10;
export const PART_TYPES = ['intro', 'verse', 'pre-chorus', 'chorus', 'bridge', 'outro'] as const;
export type PartType = (typeof PART_TYPES)[number];

export const PART_LABELS: Record<PartType, string> = {
  intro: 'Intro',
  verse: 'Verse',
  'pre-chorus': 'Pre-chorus',
  chorus: 'Chorus',
  bridge: 'Bridge',
  outro: 'Outro',
};

export function isPartType(value: string): value is PartType {
  return (PART_TYPES as readonly string[]).includes(value);
}

/** A caption is at most this many characters (spec §9). */
export const CAPTION_MAX_LENGTH = 2000;

/** Titles, artists and composers: the server keeps at most this many characters. */
export const LABEL_MAX_LENGTH = 200;
