// ESLint (flat config). `npm run lint` runs it together with `tsc --noEmit`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import featureBoundaries from './eslint-rules/feature-boundaries.js';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'e2e/artifacts/'] },

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // React ignores what an event handler returns; a rejected promise there is still caught
      // by no-floating-promises inside the handler.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Testing Library's act() also works synchronously; its thenable is safe to drop.
      '@typescript-eslint/no-floating-promises': [
        'error',
        // (Testing Library re-exports React's act.)
        { allowForKnownSafeCalls: [{ from: 'package', package: 'react', name: 'act' }] },
      ],
    },
  },

  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest'], pluginQuery.configs['flat/recommended']],
    plugins: { selfsound: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'selfsound/feature-boundaries': 'error' },
  },

  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**', 'e2e/**'],
    rules: {
      // msw handlers are async whether or not they await; expect(spy) passes methods unbound.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Playwright fixtures that need no other fixture are written `async ({}, use) => ...`.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },

  // The config, the build scripts and the lint rule itself are plain JavaScript run by Node.
  {
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    // The service worker runs in the browser, as a worker: its globals, none of Node's.
    files: ['public/sw.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { self: 'readonly', fetch: 'readonly', atob: 'readonly', URL: 'readonly', console: 'off', process: 'off' },
    },
  },
);
