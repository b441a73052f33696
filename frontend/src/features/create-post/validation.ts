/**
 * The rules of the four create-post forms (spec §5 Audio, Lyrics, Media and MusicXML post; §9),
 * worded as the spec words them. Pure: the pages call these and show what comes back.
 *
 * Picking files never throws a selection away whole: each file is checked on its own, the ones
 * that pass are added (while there is room) and the others come back as problems to show.
 */

import {
  CAPTION_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  LYRICS_MAX_PARTS,
  PART_LABELS,
  PART_TYPES,
  isPartType,
  type PartType,
} from '../../lib/lyrics-parts';

/** 1MB as the server counts it (a limit of 10MB is 10 × 2^20 bytes). */
export const MB = 1024 * 1024;

/** Titles, artists and composers, and captions: as long as the server keeps them. */
export { CAPTION_MAX_LENGTH, LABEL_MAX_LENGTH };

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** The file name without its (last) extension: the spec's default title. */
export function fileStem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * What a score's file name suggests as its title, as the server makes it of a name left as the
 * title: no extension, underscores as spaces, and a name all in lower case begun with a capital
 * ('joplin_maple_leaf_rag.mxl' → 'Joplin maple leaf rag').
 */
export function scoreTitleFromFileName(name: string): string {
  const title = fileStem(name).replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  if (!title) return 'Untitled';
  return title === title.toLowerCase() ? title.charAt(0).toUpperCase() + title.slice(1) : title;
}

/** The extension in lower case, without the dot ('' when there is none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export { formatFileSize } from '../../lib/file-size';

/**
 * What to send for a field the page prefilled with the spec's default: '' while it still holds
 * that default (the server then prefers the file's own tags or score data, and falls back to
 * the same default), otherwise what the person wrote, trimmed.
 */
export function valueToSend(value: string, prefilled: string): string {
  const trimmed = value.trim();
  return trimmed === prefilled.trim() ? '' : trimmed;
}

/** The part of a file the rules look at (a File, or anything shaped like one in tests). */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
}

/** What became of a picked selection: the files to add, and what to say about the rest. */
export interface Selection<F extends FileFacts> {
  accepted: F[];
  /** Distinct messages, in the order they came up. */
  problems: string[];
}

function addProblem(problems: string[], message: string): void {
  if (!problems.includes(message)) problems.push(message);
}

// ---------------------------------------------------------------------------------------------
// Audio post

export const AUDIO_MAX_FILES = 10;
export const AUDIO_MAX_BYTES = 50 * MB;
export const DEFAULT_ARTIST = 'Unknown Artist';

export const AUDIO_MESSAGES = {
  notAudio: (file: string) => `${file} is not an audio file`,
  tooLarge: (file: string) => `${file} exceeds 50MB limit`,
  tooMany: `Maximum ${AUDIO_MAX_FILES} audio files allowed per post`,
  noFiles: 'Please select at least one audio file',
  missingFields: 'Please fill in title and artist for all audio files',
  failed: 'Failed to create audio post',
} as const;

export function audioFileProblem(file: FileFacts): string | null {
  if (!file.type.startsWith('audio/')) return AUDIO_MESSAGES.notAudio(file.name);
  if (file.size > AUDIO_MAX_BYTES) return AUDIO_MESSAGES.tooLarge(file.name);
  return null;
}

/** Adds the audio files that pass, up to 10 in all. */
export function selectAudioFiles<F extends FileFacts>(currentCount: number, incoming: readonly F[]): Selection<F> {
  const accepted: F[] = [];
  const problems: string[] = [];
  for (const file of incoming) {
    const problem = audioFileProblem(file);
    if (problem) addProblem(problems, problem);
    else if (currentCount + accepted.length >= AUDIO_MAX_FILES) addProblem(problems, AUDIO_MESSAGES.tooMany);
    else accepted.push(file);
  }
  return { accepted, problems };
}

/** One file of an audio post with the words shown for it. */
export interface TrackFields {
  title: string;
  artist: string;
}

/** The message that stops an audio post from being sent, or null. */
export function audioPostProblem(tracks: readonly TrackFields[]): string | null {
  if (tracks.length === 0) return AUDIO_MESSAGES.noFiles;
  if (tracks.length > AUDIO_MAX_FILES) return AUDIO_MESSAGES.tooMany;
  if (tracks.some((t) => t.title.trim() === '' || t.artist.trim() === '')) return AUDIO_MESSAGES.missingFields;
  return null;
}

// ---------------------------------------------------------------------------------------------
// MusicXML post

export const SCORE_MAX_FILES = 5;
export const SCORE_MAX_BYTES = 10 * MB;
export const DEFAULT_COMPOSER = 'Unknown Composer';
export const SCORE_EXTENSIONS = ['musicxml', 'xml', 'mxl'] as const;

export const SCORE_MESSAGES = {
  notScore: (file: string) => `${file} is not a valid MusicXML file`,
  tooLarge: (file: string) => `${file} exceeds 10MB limit`,
  tooMany: `Maximum ${SCORE_MAX_FILES} MusicXML files allowed per post`,
  noFiles: 'Please select at least one MusicXML file',
  missingFields: 'Please fill in title and composer for all MusicXML files',
  failed: 'Failed to create MusicXML post',
} as const;

/**
 * An XML MIME type: application/xml, text/xml, any '+xml' type
 * (application/vnd.recordare.musicxml+xml), and compressed MusicXML
 * (application/vnd.recordare.musicxml).
 */
function isXmlType(type: string): boolean {
  const t = type.toLowerCase().split(';')[0]?.trim() ?? '';
  return /[/+]xml$/.test(t) || t === 'application/vnd.recordare.musicxml';
}

export function isMusicXmlFile(file: FileFacts): boolean {
  return (SCORE_EXTENSIONS as readonly string[]).includes(fileExtension(file.name)) || isXmlType(file.type);
}

export function scoreFileProblem(file: FileFacts): string | null {
  if (!isMusicXmlFile(file)) return SCORE_MESSAGES.notScore(file.name);
  if (file.size > SCORE_MAX_BYTES) return SCORE_MESSAGES.tooLarge(file.name);
  return null;
}

/** Adds the MusicXML files that pass, up to 5 in all. */
export function selectScoreFiles<F extends FileFacts>(currentCount: number, incoming: readonly F[]): Selection<F> {
  const accepted: F[] = [];
  const problems: string[] = [];
  for (const file of incoming) {
    const problem = scoreFileProblem(file);
    if (problem) addProblem(problems, problem);
    else if (currentCount + accepted.length >= SCORE_MAX_FILES) addProblem(problems, SCORE_MESSAGES.tooMany);
    else accepted.push(file);
  }
  return { accepted, problems };
}

export interface ScoreFields {
  title: string;
  composer: string;
}

/** The message that stops a MusicXML post from being sent, or null. */
export function scorePostProblem(scores: readonly ScoreFields[]): string | null {
  if (scores.length === 0) return SCORE_MESSAGES.noFiles;
  if (scores.length > SCORE_MAX_FILES) return SCORE_MESSAGES.tooMany;
  if (scores.some((s) => s.title.trim() === '' || s.composer.trim() === '')) return SCORE_MESSAGES.missingFields;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Media post

export const MEDIA_MAX_FILES = 5;
export const IMAGE_MAX_BYTES = 10 * MB;
export const VIDEO_MAX_BYTES = 100 * MB;
export const MEDIA_MAX_TOTAL_BYTES = 200 * MB;
export const IMAGE_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'webp'] as const;
export const VIDEO_EXTENSIONS = ['mp4', 'mov', 'avi', 'mkv', 'webm'] as const;

/** The MIME types browsers give the allowed kinds. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/gif', 'image/webp']);
const VIDEO_TYPES = new Set([
  'video/mp4',
  'video/quicktime',
  'video/x-msvideo',
  'video/avi',
  'video/msvideo',
  'video/x-matroska',
  'video/webm',
]);

export const MEDIA_MESSAGES = {
  tooMany: `Maximum ${MEDIA_MAX_FILES} files allowed per post`,
  unsupported: (file: string) =>
    `Unsupported file type: ${file}. Allowed: ${[...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS].join(', ')}`,
  tooLarge: (limitMb: number) => `File size exceeds ${limitMb}MB limit`,
  totalTooLarge: 'Total file size exceeds 200MB limit',
  noFiles: 'Please select at least one file',
  failed: 'Failed to create post',
} as const;

export type MediaKind = 'image' | 'video';

/** Image, video, or null for a type the post does not take (by MIME type, else extension). */
export function mediaKind(file: FileFacts): MediaKind | null {
  const type = file.type.toLowerCase();
  if (IMAGE_TYPES.has(type)) return 'image';
  if (VIDEO_TYPES.has(type)) return 'video';
  const extension = fileExtension(file.name);
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return 'image';
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(extension)) return 'video';
  return null;
}

/** The type and size rule of one file; the message names the file when the spec's does not. */
export function mediaFileProblem(file: FileFacts): string | null {
  const kind = mediaKind(file);
  if (!kind) return MEDIA_MESSAGES.unsupported(file.name);
  const limit = kind === 'image' ? IMAGE_MAX_BYTES : VIDEO_MAX_BYTES;
  if (file.size > limit) return MEDIA_MESSAGES.tooLarge(limit / MB);
  return null;
}

function sameFile(a: FileFacts, b: FileFacts): boolean {
  return a.name === b.name && a.size === b.size;
}

/**
 * Adds the media files that pass: duplicates of a file already there (same name and size) are
 * skipped without a word; at most 5 files and 200MB in all.
 */
export function selectMediaFiles<F extends FileFacts>(current: readonly FileFacts[], incoming: readonly F[]): Selection<F> {
  const accepted: F[] = [];
  const problems: string[] = [];
  let total = current.reduce((sum, f) => sum + f.size, 0);
  for (const file of incoming) {
    if (current.some((f) => sameFile(f, file)) || accepted.some((f) => sameFile(f, file))) continue;
    const problem = mediaFileProblem(file);
    if (problem) {
      // 'File size exceeds 10MB limit' does not say which file: the page shows the name with it.
      addProblem(problems, problem.startsWith('File size') ? `${file.name}: ${problem}` : problem);
    } else if (current.length + accepted.length >= MEDIA_MAX_FILES) {
      addProblem(problems, MEDIA_MESSAGES.tooMany);
    } else if (total + file.size > MEDIA_MAX_TOTAL_BYTES) {
      addProblem(problems, MEDIA_MESSAGES.totalTooLarge);
    } else {
      accepted.push(file);
      total += file.size;
    }
  }
  return { accepted, problems };
}

/** The message that stops a media post from being sent, or null. */
export function mediaPostProblem(files: readonly FileFacts[]): string | null {
  if (files.length === 0) return MEDIA_MESSAGES.noFiles;
  if (files.length > MEDIA_MAX_FILES) return MEDIA_MESSAGES.tooMany;
  for (const file of files) {
    const problem = mediaFileProblem(file);
    if (problem) return problem;
  }
  if (files.reduce((sum, f) => sum + f.size, 0) > MEDIA_MAX_TOTAL_BYTES) return MEDIA_MESSAGES.totalTooLarge;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Lyrics post

export { LYRICS_MAX_PARTS, PART_LABELS, PART_TYPES, isPartType, type PartType };

export const LYRICS_MESSAGES = {
  missingFields: 'Please fill in all required fields',
  tooManyParts: `A song can have at most ${LYRICS_MAX_PARTS} parts`,
  failed: 'Failed to create lyrics post',
} as const;

export interface LyricsFields {
  songTitle: string;
  artistName: string;
  parts: ReadonlyArray<{ type: string; lyrics: string }>;
}

/** Which required fields are missing, for marking them on the form. */
export interface LyricsGaps {
  songTitle: boolean;
  artistName: boolean;
  parts: Array<{ type: boolean; lyrics: boolean }>;
}

export function lyricsGaps(values: LyricsFields): LyricsGaps {
  return {
    songTitle: values.songTitle.trim() === '',
    artistName: values.artistName.trim() === '',
    parts: values.parts.map((p) => ({ type: !isPartType(p.type), lyrics: p.lyrics.trim() === '' })),
  };
}

/** The message that stops a lyrics post from being sent, or null. */
export function lyricsPostProblem(values: LyricsFields): string | null {
  const gaps = lyricsGaps(values);
  if (
    gaps.songTitle ||
    gaps.artistName ||
    values.parts.length === 0 ||
    gaps.parts.some((p) => p.type || p.lyrics)
  ) {
    return LYRICS_MESSAGES.missingFields;
  }
  if (values.parts.length > LYRICS_MAX_PARTS) return LYRICS_MESSAGES.tooManyParts;
  return null;
}

/** Moves the item at `from` to `to` (both clamped), returning a new array. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}
