/**
 * Before the e2e run: make sure frontend/dist is a build of the current sources, then start the
 * real backend on a free port with a fresh data directory. The returned function stops it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR, FRONTEND_DIR, startServer } from './support/server';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), 0);
}

function ensureBuild(): void {
  const built = newestMtime(join(DIST_DIR, 'index.html'));
  const sources = Math.max(
    ...['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) =>
      newestMtime(join(FRONTEND_DIR, p)),
    ),
  );
  if (built > sources && !process.env.SELFSOUND_E2E_REBUILD) return;
  console.log('[e2e] frontend/dist is missing or older than the sources: running vite build');
  execFileSync(process.execPath, [join(FRONTEND_DIR, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: FRONTEND_DIR,
    stdio: 'inherit',
  });
}

export default async function globalSetup() {
  ensureBuild();
  const server = await startServer();
  process.env.SELFSOUND_E2E_URL = server.url;
  process.env.SELFSOUND_E2E_DATA_DIR = server.dataDir;
  console.log(`[e2e] selfsound is serving ${server.appUrl}/ (data in ${server.dataDir})`);
  return async () => {
    await server.stop();
  };
}
