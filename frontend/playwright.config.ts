import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the real `selfsound` binary (see e2e/global-setup.ts) in Debian's
 * Chromium, at a desktop and a phone width. Screenshots land in e2e/artifacts/ (git-ignored).
 */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: './e2e',
  // Figures to read rather than tests (e2e/*.measure.ts) run only when asked for.
  testMatch: process.env.SELFSOUND_MEASURE ? '**/*.measure.ts' : '**/*.spec.ts',
  // A tagged run (the PostgreSQL journey, beside the main run) keeps its own results.
  outputDir: process.env.SELFSOUND_E2E_TAG ? `./test-results-${process.env.SELFSOUND_E2E_TAG}` : './test-results',
  globalSetup: './e2e/global-setup.ts',
  // Files run side by side (tests within a file stay in order): the suite mostly waits on the
  // browser and on the spec's delays, so two workers take 2.7 min where one took 4; more do not
  // help (the longest file sets the floor).
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    // SELFSOUND_E2E_COLOR_SCHEME=dark runs every journey on a dark device (screenshots to look at).
    colorScheme: process.env.SELFSOUND_E2E_COLOR_SCHEME === 'dark' ? 'dark' : 'light',
  },
  projects: [
    {
      name: 'desktop',
      use: { viewport: { width: 1440, height: 900 } },
    },
    {
      name: 'phone',
      use: {
        viewport: { width: 375, height: 812 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      },
    },
  ],
});
