import { defineConfig } from '@playwright/test';
import baseConfig from '../../playwright.config';

/**
 * The scale-out journey (make run-e2e-scale-out): one test against the production topology of
 * deploy/ run as processes (global-setup.ts starts it), in Debian's Chromium at desktop width,
 * with the main suite's browser settings. The main suite does not run it: its files end in
 * `.journey.ts`, which the main config's test match leaves out.
 */
process.env.SELFSOUND_E2E_TAG = 'scale-out';

export default defineConfig({
  testDir: '.',
  testMatch: '*.journey.ts',
  outputDir: '../../test-results-scale-out',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // A failure here is a finding about the topology, not noise to retry away.
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: { ...baseConfig.use, viewport: { width: 1440, height: 900 } },
  projects: [{ name: 'desktop' }],
});
