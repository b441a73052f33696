/**
 * Getting a MusicXML file ready to be drawn (OpenSheetMusicDisplay) and played (playback/): fetched
 * from our own origin, unpacked when it is a compressed `.mxl` (a zip), its text decoded, and a
 * `score-timewise` score turned into the `score-partwise` form both readers take (OSMD reads only
 * partwise). The text is then read a piece at a time (score-source.ts).
 *
 * Why OSMD is given Documents: its `load(string)` takes a short string that does not start with
 * `<?xml` for a URL and fetches it, and rejects a longer one; a Document always means "this is
 * the score", and the player reads the same pieces.
 */

import { ScoreFileError } from './score-file-error';
import { scoreSource, type ScoreSource } from './score-source';
import { scoreInArchive } from './unzip';

export { ScoreFileError };

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

/**
 * The score in a MusicXML text, partwise (a timewise score is turned around), or a
 * ScoreFileError when it is not well-formed MusicXML.
 */
export function parseMusicXml(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw new ScoreFileError('The file is not well-formed XML');
  const root = doc.documentElement?.nodeName.toLowerCase();
  if (root === 'score-timewise') return toPartwise(doc);
  if (root !== 'score-partwise') throw new ScoreFileError(`Unsupported MusicXML root <${root ?? 'none'}>`);
  return doc;
}

/**
 * A `score-timewise` score (measures holding parts) as `score-partwise` (parts holding
 * measures), as MusicXML's own XSLT does: the header as it is, then each part of the part list
 * with its music of every measure, under that measure's attributes.
 */
export function toPartwise(timewise: Document): Document {
  const from = timewise.documentElement;
  const doc = document.implementation.createDocument(null, 'score-partwise', null);
  const root = doc.documentElement;
  for (const attribute of Array.from(from.attributes)) root.setAttribute(attribute.name, attribute.value);
  const measures: Element[] = [];
  for (let el = from.firstElementChild; el; el = el.nextElementSibling) {
    if (el.localName === 'measure') measures.push(el);
    else root.appendChild(doc.importNode(el, true));
  }
  const listed = Array.from(from.getElementsByTagName('score-part')).map((p) => p.getAttribute('id') ?? '');
  const ids = listed.length > 0 ? listed : [...new Set(measures.flatMap((m) => Array.from(m.children).map((p) => p.getAttribute('id') ?? '')))];
  for (const id of ids) {
    const part = doc.createElement('part');
    part.setAttribute('id', id);
    for (const measure of measures) {
      const music = Array.from(measure.children).find((p) => p.localName === 'part' && p.getAttribute('id') === id);
      const out = doc.createElement('measure');
      for (const attribute of Array.from(measure.attributes)) out.setAttribute(attribute.name, attribute.value);
      for (let el = music?.firstElementChild; el; el = el.nextElementSibling) out.appendChild(doc.importNode(el, true));
      part.appendChild(out);
    }
    root.appendChild(part);
  }
  return doc;
}

/**
 * Fetches a score file (same origin, with cookies), unpacked if zipped, as a partwise score cut
 * where its measures are (score-source.ts): parsed a piece at a time, never whole.
 */
export async function fetchScore(url: string, signal?: AbortSignal): Promise<ScoreSource> {
  const response = await fetch(new URL(url, document.baseURI), { signal, credentials: 'same-origin' });
  if (!response.ok) throw new ScoreFileError(`HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return scoreSource(decodeXml(isZip(bytes) ? await scoreInArchive(bytes) : bytes), toPartwise);
}
