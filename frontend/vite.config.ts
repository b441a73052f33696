/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { soundBanks } from './sound-banks';

// Every API prefix of the backend (spec §7). In development the Vite server forwards these to
// the Rust binary so the browser sees a single origin, exactly as in production where the binary
// serves both the API and this app under /app/.
const API_PREFIXES = [
  '/authorization',
  '/auth',
  '/account',
  '/profile',
  '/profiles',
  '/posts',
  '/reports',
  '/notifications',
  '/playlists',
  '/discover',
  '/admin',
  '/media',
  '/healthz',
  '/openapi.json',
];

const apiTarget = process.env.SELFSOUND_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/app/',
  plugins: [react(), soundBanks()],
  server: {
    proxy: Object.fromEntries(
      API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }]),
    ),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Every browser we target preloads modules natively; the polyfill would be ~0.6 KB of the
    // first load (docs/frontend.md, "First load"), and without it an old browser only loses the
    // preloading, not the page.
    modulePreload: { polyfill: false },
    // The score engraver (OpenSheetMusicDisplay, ~1.3 MB) is one lazy chunk loaded only where a
    // score is shown; the first load is watched by scripts/initial-js.mjs instead.
    chunkSizeWarningLimit: 1400,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
    },
  },
  test: {
    // Components need a DOM; a test of pure logic starts with `// @vitest-environment node` and
    // runs without one (a jsdom window costs about a second a file). src/test/setup.ts serves both.
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'eslint-rules/**/*.test.js'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    restoreMocks: true,
    // make test runs these beside the browser journeys and the Rust tests on two cores, where a
    // lazy page can take a few seconds to load: waits are patient (findBy*, waitFor: see
    // src/test/setup.ts), never shorter than what a test asserts.
    testTimeout: 20_000,
    // Component tests talk to an API on another origin, which also proves the base URL is used.
    env: { VITE_API_URL: 'http://api.selfsound.test' },
  },
});
