/**
 * Starts the real `selfsound` binary for end-to-end tests: a free port, a fresh data directory
 * (SQLite database, media, outgoing mail), the built web app, and a wait for GET /healthz.
 * Extra environment (e.g. a fake OIDC provider for Google sign-in) starts a second, separate
 * server: `startServer({ name: 'google', env: { ... } })`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FRONTEND_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST_DIR = join(FRONTEND_DIR, 'dist');
export const DEFAULT_BIN = resolve(FRONTEND_DIR, '../target/debug/selfsound');

export interface RunningServer {
  name: string;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** The web app's root, e.g. http://127.0.0.1:41234/app */
  appUrl: string;
  dataDir: string;
  logFile: string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Names the data directory and the log; default 'default'. */
  name?: string;
  /** Added to (and overriding) the environment the server gets. */
  env?: Record<string, string>;
  /** The binary; default $SELFSOUND_BIN or ../target/debug/selfsound. */
  bin?: string;
  /** How long to wait for /healthz; default 60 s. */
  timeoutMs?: number;
  /** The host its public URL names; default 127.0.0.1 (federation signs for names: localhost). */
  host?: string;
}

export function binaryPath(): string {
  return process.env.SELFSOUND_BIN ? resolve(process.env.SELFSOUND_BIN) : DEFAULT_BIN;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address && typeof address === 'object') {
        const { port } = address;
        probe.close(() => resolvePort(port));
      } else {
        probe.close(() => reject(new Error('no port')));
      }
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, logFile: string) {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`selfsound exited with code ${child.exitCode} before it was healthy; see ${logFile}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`selfsound did not answer ${url}/healthz within ${timeoutMs} ms (${lastError}); see ${logFile}`);
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const name = options.name ?? 'default';
  const bin = options.bin ?? binaryPath();
  if (!existsSync(bin)) {
    throw new Error(`The backend binary ${bin} does not exist. Build it (cargo build) or set SELFSOUND_BIN.`);
  }
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: run npm run build first.`);
  }
  const port = await freePort();
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), `selfsound-e2e-${name}-`));
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);

  const child = spawn(bin, ['serve'], {
    env: {
      ...process.env,
      RUST_LOG: process.env.RUST_LOG ?? 'info',
      SELFSOUND_DATA_DIR: dataDir,
      SELFSOUND_BIND: `127.0.0.1:${port}`,
      SELFSOUND_PUBLIC_URL: url,
      SELFSOUND_WEB_DIR: DIST_DIR,
      // Account set-up names its own client address (accounts.ts) so the suite stays under the
      // per-address sign-up and sign-in throttles; the browser sends no such header.
      // The browser tests talk to the server from loopback, which they declare a trusted proxy.
      SELFSOUND_TRUSTED_PROXIES: '127.0.0.1/32',
      // Every browser of the whole suite is one client address: the per-client write limits
      // are raised so journeys do not share one person's allowance. Per account they keep the
      // defaults (README), so the journeys also show a person at a human pace never meets one —
      // but for posts: the Load More journey sets up 26 posts of one writer through the API
      // before its browser opens (a back catalogue, not a pace).
      SELFSOUND_WRITE_LIMITS:
        'post=40:2000/1h,comment=30:2000/5m,like=60:2000/10m,listen=30:2000/10m,block=20:2000/10m,' +
        'report=10:2000/1h,comment_delete=60:2000/10m,search=120:5000/5m,profile=30:2000/1h,' +
        'repost=30:2000/10m,playlist=120:2000/10m,play=60:2000/10m,discover=120:5000/5m,' +
        'playlist_read=120:5000/5m',
      // Discover is found afresh for every visit, so a journey sees what it just did.
      SELFSOUND_DISCOVER_EVERY: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    if (!process.env.SELFSOUND_E2E_KEEP_DATA) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  try {
    await waitForHealth(url, child, options.timeoutMs ?? 60_000, logFile);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { name, url, appUrl: `${url}/app`, dataDir, logFile, stop };
}
