/**
 * The test object every spec uses: `server` is the backend the global setup started (its URL
 * and data directory come through the environment), and `shot` saves a screenshot under
 * e2e/artifacts/ named after the project (desktop / phone).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { FRONTEND_DIR, type RunningServer } from './server';

export const ARTIFACTS_DIR = join(FRONTEND_DIR, 'e2e', 'artifacts');
/** A tagged run (e.g. the journey on PostgreSQL) names its screenshots apart. */
const SHOT_PREFIX = process.env.SELFSOUND_E2E_TAG ? `${process.env.SELFSOUND_E2E_TAG}-` : '';

type ServerInfo = Pick<RunningServer, 'url' | 'appUrl' | 'dataDir'>;

export const test = base.extend<
  { shot: (name: string, options?: { fullPage?: boolean }) => Promise<void> },
  { server: ServerInfo }
>({
  server: [
    async ({}, use) => {
      const url = process.env.SELFSOUND_E2E_URL;
      const dataDir = process.env.SELFSOUND_E2E_DATA_DIR;
      if (!url || !dataDir) throw new Error('The global setup did not start the server');
      await use({ url, appUrl: `${url}/app`, dataDir });
    },
    { scope: 'worker' },
  ],
  shot: async ({ page }, use, testInfo) => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await use(async (name, options) => {
      await page.screenshot({
        path: join(ARTIFACTS_DIR, `${SHOT_PREFIX}${testInfo.project.name}-${name}.png`),
        fullPage: options?.fullPage ?? false,
        // Finish entrance animations (menus, dialogs) so the picture shows the settled screen.
        animations: 'disabled',
      });
    });
  },
});

export { expect };

/** A unique address per test and project, so parallel runs never collide. */
export function uniqueEmail(prefix: string, projectName: string): string {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return `${prefix}-${projectName}-${stamp}@example.com`;
}

/** Waits until the app has finished its first render. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}
