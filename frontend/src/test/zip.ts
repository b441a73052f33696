import { deflateRawSync } from 'node:zlib';

/** CRC-32 (the zip format's checksum of each entry's bytes). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive of `[name, text, deflated]` entries, as an `.mxl` is. */
export function zip(files: Array<[string, string, boolean]>): Uint8Array {
  const chunks: number[] = [];
  const central: number[] = [];
  const u16 = (out: number[], v: number) => out.push(v & 0xff, (v >> 8) & 0xff);
  const u32 = (out: number[], v: number) => out.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff);
  for (const [name, text, deflated] of files) {
    const raw = new TextEncoder().encode(text);
    const data = deflated ? new Uint8Array(deflateRawSync(raw)) : raw;
    const nameBytes = new TextEncoder().encode(name);
    const crc = crc32(raw);
    const offset = chunks.length;
    u32(chunks, 0x04034b50);
    u16(chunks, 20);
    u16(chunks, 0);
    u16(chunks, deflated ? 8 : 0);
    u32(chunks, 0);
    u32(chunks, crc);
    u32(chunks, data.length);
    u32(chunks, raw.length);
    u16(chunks, nameBytes.length);
    u16(chunks, 0);
    chunks.push(...nameBytes, ...data);
    u32(central, 0x02014b50);
    u16(central, 20);
    u16(central, 20);
    u16(central, 0);
    u16(central, deflated ? 8 : 0);
    u32(central, 0);
    u32(central, crc);
    u32(central, data.length);
    u32(central, raw.length);
    u16(central, nameBytes.length);
    u16(central, 0);
    u16(central, 0);
    u16(central, 0);
    u16(central, 0);
    u32(central, 0);
    u32(central, offset);
    central.push(...nameBytes);
  }
  const start = chunks.length;
  chunks.push(...central);
  u32(chunks, 0x06054b50);
  u16(chunks, 0);
  u16(chunks, 0);
  u16(chunks, files.length);
  u16(chunks, files.length);
  u32(chunks, central.length);
  u32(chunks, start);
  u16(chunks, 0);
  return new Uint8Array(chunks);
}
