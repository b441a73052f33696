/** Audio files the journeys upload, made in code. */

/**
 * A WAV (16-bit mono, 8 kHz) of a `hz` tone that swells and fades, `seconds` long, peaking at
 * `amplitude` of full scale.
 */
export function toneWav(seconds: number, hz = 440, amplitude = 0.7): Buffer {
  const rate = 8000;
  const samples = Math.floor(seconds * rate);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const envelope = Math.sin((t / seconds) * Math.PI);
    out.writeInt16LE(Math.round(Math.sin(t * hz * 2 * Math.PI) * envelope * amplitude * 32767), 44 + i * 2);
  }
  return out;
}
