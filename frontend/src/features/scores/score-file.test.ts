import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { zip } from '../../test/zip';
import { MOST_BYTES, scoreInArchive } from './unzip';
import { ScoreFileError, decodeXml, fetchScore, isZip, parseMusicXml } from './score-file';

const XML = '<?xml version="1.0" encoding="UTF-8"?><score-partwise version="4.0"><part-list/></score-partwise>';
const at = (path: string) => new URL(path, document.baseURI).href;

describe('score files', () => {
  it('tells a zip (.mxl) from XML by its first bytes', () => {
    expect(isZip(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe(true);
    expect(isZip(new TextEncoder().encode(XML))).toBe(false);
    expect(isZip(new Uint8Array([0x50, 0x4b]))).toBe(false);
  });

  it('reads UTF-8 (with or without BOM), UTF-16 and a declared legacy encoding', () => {
    const utf8 = new TextEncoder().encode('<?xml version="1.0"?><a>é</a>');
    expect(decodeXml(utf8)).toBe('<?xml version="1.0"?><a>é</a>');
    expect(decodeXml(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe('<?xml version="1.0"?><a>é</a>');
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from('<a/>').flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(decodeXml(utf16)).toBe('<a/>');
    const latin1 = new Uint8Array([...new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xe9, ...new TextEncoder().encode('</a>')]);
    expect(decodeXml(latin1)).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>');
  });

  it('accepts partwise MusicXML, even without an XML declaration, and rejects anything else', () => {
    expect(parseMusicXml('<score-partwise><part-list/></score-partwise>').documentElement.nodeName).toBe('score-partwise');
    expect(() => parseMusicXml('<score-partwise><oops></score-partwise>')).toThrow(ScoreFileError);
    expect(() => parseMusicXml('<html><body/></html>')).toThrow(/Unsupported MusicXML root <html>/);
  });

  it('fetches a .musicxml and an .mxl (stored or deflated) as a Document; a failed answer is an error', async () => {
    const stored = zip([
      ['META-INF/container.xml', CONTAINER, false],
      ['score/etude.xml', XML, false],
    ]);
    const deflated = zip([
      ['META-INF/container.xml', CONTAINER, true],
      ['score/etude.xml', XML, true],
    ]);
    const bare = zip([['piece.musicxml', XML, true]]);
    server.use(
      http.get(at('/media/a.musicxml'), () => new HttpResponse(XML, { headers: { 'Content-Type': 'application/xml' } })),
      http.get(at('/media/b.mxl'), () => new HttpResponse(stored, { headers: { 'Content-Type': 'application/octet-stream' } })),
      http.get(at('/media/c.mxl'), () => new HttpResponse(deflated, { headers: { 'Content-Type': 'application/octet-stream' } })),
      http.get(at('/media/d.mxl'), () => new HttpResponse(bare, { headers: { 'Content-Type': 'application/octet-stream' } })),
      http.get(at('/media/e.mxl'), () => new HttpResponse(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))),
      http.get(at('/media/gone.xml'), () => new HttpResponse(null, { status: 404 })),
    );
    for (const path of ['/media/a.musicxml', '/media/b.mxl', '/media/c.mxl', '/media/d.mxl']) {
      const score = await fetchScore(path);
      expect(score.piece(0, 1).documentElement.nodeName, path).toBe('score-partwise');
    }
    await expect(fetchScore('/media/e.mxl')).rejects.toThrow(ScoreFileError);
    await expect(fetchScore('/media/gone.xml')).rejects.toThrow('HTTP 404');
  });

  it('refuses an .mxl whose score inflates past 32 MB, without holding more than that', async () => {
    const bomb = zip([['score.xml', `<score-partwise>${' '.repeat(MOST_BYTES + 1024)}</score-partwise>`, true]]);
    expect(bomb.length).toBeLessThan(200_000);
    await expect(scoreInArchive(bomb)).rejects.toThrow('The score in the .mxl archive is too large');
    await expect(scoreInArchive(zip([['META-INF/container.xml', CONTAINER, true]]))).rejects.toThrow('holds no score');
    await expect(scoreInArchive(new Uint8Array(64))).rejects.toThrow('not a zip archive');
  });

  it('turns a timewise score into a partwise one, part by part', () => {
    const doc = parseMusicXml(
      '<score-timewise version="3.1"><work><work-title>T</work-title></work><part-list><score-part id="P1"/><score-part id="P2"/></part-list>' +
        '<measure number="1"><part id="P1"><note n="a"/></part><part id="P2"><note n="b"/></part></measure>' +
        '<measure number="2" implicit="no"><part id="P1"><note n="c"/></part><part id="P2"><note n="d"/></part></measure></score-timewise>',
    );
    const root = doc.documentElement;
    expect(root.nodeName).toBe('score-partwise');
    expect(root.getAttribute('version')).toBe('3.1');
    const parts = Array.from(root.getElementsByTagName('part'));
    expect(parts.map((p) => p.getAttribute('id'))).toEqual(['P1', 'P2']);
    const notes = (p: Element) => Array.from(p.getElementsByTagName('note')).map((n) => n.getAttribute('n'));
    expect(parts.map(notes)).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
    expect(parts[0]?.getElementsByTagName('measure')[1]?.getAttribute('implicit')).toBe('no');
    expect(root.getElementsByTagName('work-title')[0]?.textContent).toBe('T');
  });
});

const CONTAINER =
  '<?xml version="1.0"?><container><rootfiles><rootfile full-path="score/etude.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>';
