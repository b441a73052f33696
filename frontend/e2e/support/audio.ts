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

/**
 * A CD-quality WAV (16-bit stereo, 44.1 kHz: 1411 kbit/s, as a home recording is exported) of a
 * slowly beating two-tone chord, `seconds` long.
 */
export function studioWav(seconds: number): Buffer {
  const rate = 44100;
  const frames = Math.floor(seconds * rate);
  const out = Buffer.alloc(44 + frames * 4);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + frames * 4, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(2, 22); // stereo
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 4, 28);
  out.writeUInt16LE(4, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const left = Math.sin(t * 220 * 2 * Math.PI) * 0.3 + Math.sin(t * 277.2 * 2 * Math.PI) * 0.2;
    const right = Math.sin(t * 220.5 * 2 * Math.PI) * 0.3 + Math.sin(t * 329.6 * 2 * Math.PI) * 0.2;
    out.writeInt16LE(Math.round(left * 32767), 44 + i * 4);
    out.writeInt16LE(Math.round(right * 32767), 46 + i * 4);
  }
  return out;
}
