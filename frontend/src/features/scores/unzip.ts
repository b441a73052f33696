/**
 * The score inside a compressed MusicXML file (`.mxl`: a zip archive). Its
 * `META-INF/container.xml` names the score (the first `rootfile`); an archive without one holds
 * it as its one `.xml`/`.musicxml` file outside `META-INF`. Deflated entries are inflated by the
 * browser (`DecompressionStream('deflate-raw')`), and no entry is inflated past
 * `MOST_BYTES` whatever its header claims (the server checked the archive on upload, but a
 * header's sizes are the archive's word, not a fact).
 */

import { ScoreFileError } from './score-file-error';

/** The most bytes an entry may inflate to: the server's own limit for a score inside an archive. */
export const MOST_BYTES = 32 * 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  offset: number;
}

function entries(bytes: Uint8Array): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: within the last 64 KiB (its comment) plus its 22 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ScoreFileError('The .mxl file is not a zip archive');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new ScoreFileError('The .mxl archive is damaged');
    }
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    out.push({ name, method, compressedSize, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

async function read(bytes: Uint8Array, entry: Entry): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.offset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) {
    throw new ScoreFileError('The .mxl archive is damaged');
  }
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.slice(0, MOST_BYTES);
  if (entry.method !== 8) throw new ScoreFileError('The .mxl archive uses an unknown compression');
  const source = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const stream = source.pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MOST_BYTES) {
      await reader.cancel();
      throw new ScoreFileError('The score in the .mxl archive is too large');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The bytes of the score an `.mxl` archive holds. */
export async function scoreInArchive(bytes: Uint8Array): Promise<Uint8Array> {
  const list = entries(bytes);
  const container = list.find((e) => e.name === 'META-INF/container.xml');
  let path: string | null = null;
  if (container) {
    const xml = new TextDecoder().decode(await read(bytes, container));
    path = /<rootfile\b[^>]*\bfull-path\s*=\s*["']([^"']+)["']/.exec(xml)?.[1] ?? null;
  }
  const entry =
    (path ? list.find((e) => e.name === path) : undefined) ??
    list.find((e) => !e.name.startsWith('META-INF/') && /\.(xml|musicxml)$/i.test(e.name));
  if (!entry) throw new ScoreFileError('The .mxl archive holds no score');
  return read(bytes, entry);
}
