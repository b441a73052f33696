#!/usr/bin/env node
/**
 * Prints the JavaScript a first visit to /app/home downloads before any interaction, gzipped,
 * and fails the build when it is over budget (docs/frontend.md, "First load").
 *
 * That is the entry script of dist/index.html plus every chunk it imports statically, which
 * Vite lists as <link rel="modulepreload">. Chunks reached only through import() (the lazy
 * routes) are not counted: they load when someone goes there.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The most the first load may weigh, in gzipped bytes (1 KB = 1000 bytes, as the issue counts).
 * 120 KB is the product's budget. The shell alone fitted in 100 KB, but /home is the first screen
 * and now shows the feeds: post cards, likes and the audio player (one player for the whole app,
 * above the routes) come with it, so that the first posts play without another round trip. What
 * only some visits need stays out (the media overlay, the delete confirmation, every other page).
 */
const BUDGET_BYTES = 120_000;

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');

/** A URL from index.html (`/app/assets/x.js`) as a file under dist/. */
function fileOf(url) {
  const path = new URL(url, 'http://host/app/').pathname.replace(/^\/app\//, '');
  return join(dist, path);
}

const entry = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
const preloaded = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
if (entry.length === 0) {
  console.error('initial-js: no module script in dist/index.html');
  process.exit(1);
}

/**
 * Follows static imports from the entry too, so a chunk missing from the preload links is
 * still counted (`import "./x.js"` and `import {..} from "./x.js"`, never `import("./x.js")`).
 */
const seen = new Set();
const queue = [...entry, ...preloaded].map(fileOf);
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{},\s]+from\s*)?["']([^"']+\.js)["']/g)) {
    queue.push(join(dirname(file), m[1]));
  }
}

let total = 0;
const rows = [...seen].map((file) => {
  const bytes = readFileSync(file);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  total += gzipped;
  return { file: relative(dist, file), raw: bytes.length, gzipped };
});
rows.sort((a, b) => b.gzipped - a.gzipped);

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
console.log('\nInitial JavaScript of /app/home (gzip -9):');
for (const row of rows) console.log(`  ${row.file.padEnd(40)} ${kb(row.raw).padStart(10)} ${kb(row.gzipped).padStart(10)}`);
console.log(`  ${'total'.padEnd(40)} ${''.padStart(10)} ${kb(total).padStart(10)}  (budget ${kb(BUDGET_BYTES)})\n`);

if (total > BUDGET_BYTES) {
  console.error(`initial-js: ${kb(total)} is over the budget of ${kb(BUDGET_BYTES)}`);
  process.exit(1);
}
