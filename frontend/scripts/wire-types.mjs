#!/usr/bin/env node
/**
 * Writes src/lib/api-schema.ts, the TypeScript of the server's OpenAPI document, so that the web
 * app's wire types come from the server instead of being written twice (docs/frontend.md, "Wire
 * types"). The document comes from the binary itself (`selfsound openapi`, the one it serves at
 * /openapi.json): $SELFSOUND_BIN, or ../target/debug/selfsound (cargo build -p api --bin selfsound).
 *
 *   npm run wire-types              regenerate and write the file
 *   npm run wire-types -- --check   regenerate in memory; fail when the committed file differs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const FRONTEND = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = join(FRONTEND, 'src', 'lib', 'api-schema.ts');
const BIN = process.env.SELFSOUND_BIN
  ? resolve(process.env.SELFSOUND_BIN)
  : join(FRONTEND, '..', 'target', 'debug', 'selfsound');

const HEADER = `/**
 * GENERATED from the server's OpenAPI document: do not edit by hand.
 * Regenerate with \`npm run wire-types\` (in frontend/, after cargo build -p api --bin selfsound);
 * \`npm run wire-types -- --check\` (run by make test) fails when this file is out of date.
 * Features alias what they read: \`type PostJson = components['schemas']['PostJson']\`.
 */

`;

const check = process.argv.includes('--check');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  console.error(`wire-types: unknown argument ${unknown.join(' ')} (only --check)`);
  process.exit(2);
}

if (!existsSync(BIN)) {
  console.error(`wire-types: the server binary ${BIN} does not exist.`);
  console.error('Build it with `cargo build -p api --bin selfsound`, or set SELFSOUND_BIN.');
  process.exit(1);
}

let document;
try {
  document = JSON.parse(execFileSync(BIN, ['openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
} catch (error) {
  console.error(`wire-types: \`${BIN} openapi\` did not print an OpenAPI document: ${error.message}`);
  process.exit(1);
}

// Sorted keys and the TypeScript printer alone: the same document always gives the same bytes.
// `{"type": "object"}` with no properties is any object (JSON Schema), not an empty one.
const ast = await openapiTS(document, { alphabetize: true, emptyObjectsUnknown: true, silent: true });
const generated = HEADER + astToString(ast);

const shown = relative(process.cwd(), OUTPUT) || OUTPUT;
if (check) {
  const committed = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : null;
  if (committed !== generated) {
    console.error(`wire-types: the committed wire types differ from the server's OpenAPI document: run npm run wire-types`);
    console.error(`(${shown} ${committed === null ? 'is missing' : 'is out of date'}; the document came from ${BIN})`);
    process.exit(1);
  }
  console.log(`wire-types: ${shown} matches the server's OpenAPI document`);
} else {
  const before = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : null;
  if (before !== generated) writeFileSync(OUTPUT, generated);
  console.log(`wire-types: ${shown} ${before === generated ? 'was already up to date' : 'written'}`);
}
