/**
 * Getting a MusicXML file ready for OpenSheetMusicDisplay: fetched from our own origin, then
 * either a compressed `.mxl` (a zip, handed over as a Blob for OSMD to unpack) or the text of a
 * `.musicxml`/`.xml` file, parsed here into a Document.
 *
 * Why parse the text here: OSMD's `load(string)` takes a short string that does not start with
 * `<?xml` for a URL and fetches it, and rejects a longer one; a Document always means "this is
 * the score".
 */

/** The file could not be fetched or is not a score OSMD can read. */
export class ScoreFileError extends Error {
  override readonly name = 'ScoreFileError';
}

/** What OSMD's `load` is given. */
export type ScoreSource = Blob | Document;

/** A zip (every .mxl) starts with the local file header "PK\x03\x04". */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * The text of an XML file: UTF-16 when it starts with a UTF-16 byte order mark, else the
 * encoding its declaration names (ISO-8859-1 and the like), else UTF-8.
 */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // An encoding the browser does not know: read it as UTF-8.
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** The score in a MusicXML text, or a ScoreFileError when it is not well-formed partwise XML. */
export function parseMusicXml(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw new ScoreFileError('The file is not well-formed XML');
  const root = doc.documentElement?.nodeName.toLowerCase();
  if (root !== 'score-partwise') throw new ScoreFileError(`Unsupported MusicXML root <${root ?? 'none'}>`);
  return doc;
}

/** Fetches a score file (same origin, with cookies) and prepares it for OSMD. */
export async function fetchScore(url: string, signal?: AbortSignal): Promise<ScoreSource> {
  const response = await fetch(new URL(url, document.baseURI), { signal, credentials: 'same-origin' });
  if (!response.ok) throw new ScoreFileError(`HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (isZip(bytes)) return new Blob([bytes], { type: 'application/vnd.recordare.musicxml' });
  return parseMusicXml(decodeXml(bytes));
}
