/**
 * An authenticator app's code (RFC 6238: HMAC-SHA1, 30-second steps, six digits), computed from
 * the key the set-up shows, as a phone would.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(text: string): Buffer {
  let bits = '';
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const value = BASE32.indexOf(ch);
    if (value < 0) throw new Error(`not base32: ${ch}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** The code `stepsAhead` 30-second steps from now. */
export function totp(key: string, stepsAhead = 0): string {
  const step = Math.floor(Date.now() / 1000 / 30) + stepsAhead;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(key)).update(counter).digest();
  const offset = mac.readUInt8(mac.length - 1) & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}
