/**
 * Which file of a track the player streams (issue 32, docs/posts.md "Renditions"): the first of
 * the track's renditions (Opus in WebM, then AAC in MP4) this browser says it can play, and the
 * uploaded original while there are none yet (they are made in the background after upload) or
 * none it plays. The original stays the download.
 */

/** An encoded copy of a track, as the server lists it. */
export interface Stream {
  url: string;
  /** With its codec, e.g. `audio/webm; codecs="opus"`. */
  mimeType: string;
}

const answers = new Map<string, boolean>();
let probe: HTMLAudioElement | null = null;

/** Whether this browser plays `mimeType` ("maybe" or "probably"); asked once per type. */
export function playable(mimeType: string): boolean {
  let known = answers.get(mimeType);
  if (known === undefined) {
    probe ??= typeof document === 'undefined' ? null : document.createElement('audio');
    known = (probe?.canPlayType?.(mimeType) ?? '') !== '';
    answers.set(mimeType, known);
  }
  return known;
}

/** The URL to stream for a track whose original is `url`. */
export function streamUrl(url: string, streams: readonly Stream[]): string {
  return streams.find((s) => playable(s.mimeType))?.url ?? url;
}

/** The wire's `renditions` (optional: a server without them sends none). */
export function toStreams(value: unknown): Stream[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r: unknown) => {
    const { url, mime_type: mimeType } = (r ?? {}) as { url?: unknown; mime_type?: unknown };
    return typeof url === 'string' && url !== '' && typeof mimeType === 'string' ? [{ url, mimeType }] : [];
  });
}
