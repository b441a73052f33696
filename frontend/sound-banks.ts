/**
 * The sampled instruments scores play with (issue 35): MuseScore's General SoundFont (MIT; its
 * piano public domain, its drumline CC0), cut at build time into one file per General MIDI
 * family (pianos, strings, brass…) and one for the standard drum kit, so a string quartet loads
 * the strings (2 MB) and not the piano (16 MB). The files are hashed assets (cached for a year);
 * the web app learns their addresses from the module `virtual:sound-banks`.
 *
 * The SoundFont is read from Debian's package `musescore-general-soundfont-small` (or the file
 * `SELFSOUND_SOUNDFONT` names). Without it the build goes on and scores play on the synthesiser
 * alone, except under CI=true, where its absence fails the build.
 */

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SoundBankLoader, type BasicSoundBank } from 'spessasynth_core';
import type { Plugin } from 'vite';

export const SOUNDFONT_PATH = process.env.SELFSOUND_SOUNDFONT ?? '/usr/share/sounds/sf3/MuseScore_General_Lite.sf3';
/** Where the cut files are kept between builds (cutting takes a few seconds). */
const CACHE = path.resolve(import.meta.dirname, 'node_modules/.cache/selfsound-sound-banks');
/** Bumped when the cutting changes, so old cuts are not reused. */
const SCHEME = 2;
/** The cutting library's version: a new one cuts again. */
const LIBRARY = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'node_modules/spessasynth_core/package.json'), 'utf8')) as { version: string }).version;
const VIRTUAL = 'virtual:sound-banks';
const RESOLVED = `\0${VIRTUAL}`;
const FAMILIES = 16;

export interface SoundBankFile {
  /** `gm-<family>` (programs 8·family+1 to 8·family+8) or `drums`. */
  name: string;
  bytes: Uint8Array;
}

function load(source: Buffer): BasicSoundBank {
  return SoundBankLoader.fromArrayBuffer(source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength) as ArrayBuffer);
}

/** The bank with only the presets `keep` accepts, and the samples they use. */
function cut(source: Buffer, keep: (preset: BasicSoundBank['presets'][number]) => boolean): Uint8Array {
  const bank = load(source);
  for (const preset of [...bank.presets]) if (!keep(preset)) bank.deletePreset(preset);
  bank.removeUnusedElements();
  // Samples stay Ogg Vorbis as they are in the source (an SF3): nothing is encoded again.
  return new Uint8Array(bank.writeSF2({ software: 'SelfSound', writeDefaultModulators: true, writeExtendedLimits: true }));
}

/** Cuts the SoundFont into its family files, or reads them from the cache. */
export function soundBankFiles(sourcePath: string = SOUNDFONT_PATH): SoundBankFile[] | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(sourcePath);
  } catch {
    return null;
  }
  const key = createHash('sha256')
    .update(`${SCHEME}:${LIBRARY}:${path.resolve(sourcePath)}:${stat.size}:${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(CACHE, key);
  const names = [...Array.from({ length: FAMILIES }, (_, f) => `gm-${f}`), 'drums'];
  if (names.every((n) => fs.existsSync(path.join(dir, `${n}.sf3`)))) {
    return names.map((name) => ({ name, bytes: fs.readFileSync(path.join(dir, `${name}.sf3`)) }));
  }
  const source = fs.readFileSync(sourcePath);
  const melodic = (p: BasicSoundBank['presets'][number]) => !p.isGMGSDrum && p.bankMSB === 0 && p.bankLSB === 0;
  const files: SoundBankFile[] = [];
  for (let family = 0; family < FAMILIES; family++) {
    files.push({ name: `gm-${family}`, bytes: cut(source, (p) => melodic(p) && p.program >> 3 === family) });
  }
  files.push({ name: 'drums', bytes: cut(source, (p) => p.isGMGSDrum && p.program === 0) });
  // Written beside, then renamed into place whole: a build stopped halfway (or two at once)
  // never leaves a cut file short.
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  for (const f of files) fs.writeFileSync(path.join(partial, `${f.name}.sf3`), f.bytes);
  fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.renameSync(partial, dir);
  } catch {
    // Another build put its (identical) cut there first.
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return files;
}

function fileName(file: SoundBankFile): string {
  const hash = createHash('sha256').update(file.bytes).digest('hex').slice(0, 10);
  return `assets/sounds/${file.name}-${hash}.sf3`;
}

/** The Vite plugin: emits the files and writes their addresses into `virtual:sound-banks`. */
export function soundBanks(): Plugin {
  let files: SoundBankFile[] | null = null;
  let base = '/';
  const byName = new Map<string, SoundBankFile>();
  return {
    name: 'selfsound-sound-banks',
    configResolved(config) {
      base = config.base;
      files = soundBankFiles();
      if (!files) {
        const message = `sampled instruments are not built: no SoundFont at ${SOUNDFONT_PATH} (apt-get install musescore-general-soundfont-small, or set SELFSOUND_SOUNDFONT); scores will play on the synthesiser`;
        if (process.env.CI === 'true' && config.command === 'build' && !config.mode.includes('test')) throw new Error(message);
        config.logger.warn(`*** ${message}`);
      }
      for (const f of files ?? []) byName.set(fileName(f), f);
    },
    resolveId(id) {
      return id === VIRTUAL ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const urls = Object.fromEntries([...byName].map(([name, f]) => [f.name, base + name]));
      return `export const SOUND_BANKS = ${JSON.stringify(files ? urls : null)};`;
    },
    generateBundle() {
      for (const [name, f] of byName) this.emitFile({ type: 'asset', fileName: name, source: f.bytes });
    },
    configureServer(server) {
      // The development server serves the same files at the same addresses.
      server.middlewares.use((req, res, next) => {
        const file = req.url ? byName.get(req.url.slice(base.length).split('?')[0] ?? '') : undefined;
        if (!file) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        res.end(file.bytes);
      });
    },
  };
}
