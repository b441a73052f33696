/**
 * Real images for upload tests: ImageMagick draws a gradient when it is installed; otherwise a
 * PNG is written by hand (signature, IHDR, zlib-compressed IDAT, IEND, each chunk with its CRC).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A size×size RGB PNG with a purple-to-orange gradient, built without any tool. */
export function gradientPng(size = 256): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then pixels
    const t = y / (size - 1);
    for (let x = 0; x < size; x++) {
      row[1 + x * 3] = Math.round(128 + (255 - 128) * t);
      row[2 + x * 3] = Math.round(0 + 165 * t);
      row[3 + x * 3] = Math.round(128 * (1 - t));
    }
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes a 256×256 gradient PNG to `path`, with ImageMagick when it is there. */
export function writeAvatarPng(path: string): void {
  if (existsSync('/usr/bin/convert')) {
    try {
      execFileSync('/usr/bin/convert', ['-size', '256x256', 'gradient:purple-orange', `png:${path}`]);
      if (existsSync(path)) return;
    } catch {
      // Fall through to the hand-made PNG (e.g. a policy forbids the gradient coder).
    }
  }
  writeFileSync(path, gradientPng(256));
}
