import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
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

  it('fetches a .musicxml as a Document and an .mxl as a Blob; a failed answer is an error', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    server.use(
      http.get(at('/media/a.musicxml'), () => new HttpResponse(XML, { headers: { 'Content-Type': 'application/xml' } })),
      http.get(at('/media/b.mxl'), () => new HttpResponse(zip, { headers: { 'Content-Type': 'application/octet-stream' } })),
      http.get(at('/media/gone.xml'), () => new HttpResponse(null, { status: 404 })),
    );
    const doc = await fetchScore('/media/a.musicxml');
    expect(doc).toBeInstanceOf(Document);
    const blob = await fetchScore('/media/b.mxl');
    expect(blob).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (blob as Blob).arrayBuffer())).toEqual(zip);
    await expect(fetchScore('/media/gone.xml')).rejects.toThrow('HTTP 404');
  });
});
