/**
 * The production topology of deploy/ as processes on loopback: a fresh PostgreSQL database, a
 * single Garage node with a bucket and a key, an SMTP catcher (aiosmtpd keeping a Maildir), two
 * `selfsound serve` processes sharing the database, the bucket and the token secret, and Caddy
 * in front of them with deploy/Caddyfile itself (its site address, upstreams and admin endpoint
 * come from the environment). Everything lives in one temporary folder; its `mail/` is the
 * Maildir, so support/mail.ts reads the e-mails with that folder as the "data dir".
 *
 * The global setup starts it and hands a description to the tests through the environment
 * (`SELFSOUND_SCALE_OUT`); the tests read the processes' logs and may SIGKILL one by its pid.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { DIST_DIR, FRONTEND_DIR, binaryPath, freePort } from '../support/server';

export const REPO_DIR = resolve(FRONTEND_DIR, '..');
export const CADDYFILE = join(REPO_DIR, 'deploy', 'Caddyfile');
/** The environment variable the description travels in, from the global setup to the tests. */
export const TOPOLOGY_ENV = 'SELFSOUND_SCALE_OUT';
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The region Garage signs for; the processes must use the same. */
const GARAGE_REGION = 'garage';

export interface AppProcess {
  name: string;
  /** host:port, as Caddy dials it and names it in its log. */
  address: string;
  /** The process's own address, bypassing Caddy, e.g. http://127.0.0.1:41234 */
  url: string;
  pid: number;
  logFile: string;
}

export interface TopologyInfo {
  /** The temporary folder of the run; `mail/` in it is the SMTP catcher's Maildir. */
  root: string;
  /** Caddy's address: the only one the browsers use. */
  url: string;
  appUrl: string;
  caddyLog: string;
  database: string;
  bucket: string;
  processes: AppProcess[];
}

/** The description the global setup left for the tests. */
export function topologyFromEnv(): TopologyInfo {
  const json = process.env[TOPOLOGY_ENV];
  if (!json) throw new Error(`${TOPOLOGY_ENV} is not set: run with -c e2e/scale-out/playwright.config.ts`);
  return JSON.parse(json) as TopologyInfo;
}

// ---- finding the programs ------------------------------------------------------------------

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find((p) => existsSync(p) && statSync(p).isFile());
}

function garageBinary(): string | undefined {
  const configured = process.env.SELFSOUND_TEST_GARAGE;
  if (configured && existsSync(configured)) return configured;
  const cached = join(homedir(), '.cache/selfsound/garage/bin/garage');
  return onPath('garage') ?? (existsSync(cached) ? cached : undefined);
}

function aiosmtpdBinary(): string | undefined {
  const configured = process.env.SELFSOUND_TEST_AIOSMTPD;
  if (configured && existsSync(configured)) return configured;
  const local = join(REPO_DIR, 'target/test-tools/venv/bin/aiosmtpd');
  return existsSync(local) ? local : undefined;
}

interface Programs {
  selfsound: string;
  garage: string;
  aiosmtpd: string;
  caddy: string;
  psql: string;
}

/** Every program the topology needs, or an error naming each one missing and how to get it. */
function findPrograms(): Programs {
  const found = {
    selfsound: existsSync(binaryPath()) ? binaryPath() : undefined,
    garage: garageBinary(),
    aiosmtpd: aiosmtpdBinary(),
    caddy: process.env.SELFSOUND_CADDY ?? onPath('caddy'),
    psql: onPath('psql'),
  };
  const how: Record<keyof Programs, string> = {
    selfsound: `the server binary ${binaryPath()} (cargo build -p api --bin selfsound)`,
    garage: 'Garage (make garage, or SELFSOUND_TEST_GARAGE)',
    aiosmtpd: 'aiosmtpd (make test-tools, or SELFSOUND_TEST_AIOSMTPD)',
    caddy: 'Caddy (apt-get install -y caddy)',
    psql: 'psql (apt-get install -y postgresql-client)',
  };
  const missing = (Object.keys(how) as (keyof Programs)[]).filter((k) => !found[k]);
  if (missing.length > 0) throw new Error(`The scale-out journey needs ${missing.map((k) => how[k]).join('; ')}`);
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: run npm run build first.`);
  }
  return found as Programs;
}

// ---- processes -----------------------------------------------------------------------------

interface Managed {
  child: ChildProcess;
  /** `signal` (default SIGTERM), then SIGKILL after `graceMs`; resolves once it has exited. */
  stop: (signal?: NodeJS.Signals, graceMs?: number) => Promise<void>;
}

/**
 * Starts `command` with its output (both streams) going straight to `logFile` — a file
 * descriptor, not a pipe through this process, so the log is complete whatever happens here.
 */
function spawnLogged(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Managed {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r();
    else child.once('exit', () => r());
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };
  return { child, stop };
}

function exitedEarly(child: ChildProcess, what: string, logFile: string): void {
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) while starting; its log:\n${tail(logFile)}`);
  }
}

function tail(logFile: string, lines = 40): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ready` every 200 ms until it answers true, or fails after `timeoutMs` with `what`. */
async function until(what: string, timeoutMs: number, ready: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await pause(200);
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function listens(port: number): Promise<boolean> {
  return new Promise((r) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      r(true);
    });
    socket.once('error', () => r(false));
  });
}

/** The environment without anything of an outer SelfSound, database or S3 set-up. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(SELFSOUND_|AWS_)/.test(key) || ['DATABASE_URL', 'SMTP_URL', 'RUST_LOG'].includes(key)) delete env[key];
  }
  return env;
}

// ---- the parts -----------------------------------------------------------------------------

function psql(programs: Programs, sql: string): void {
  execFileSync(programs.psql, ['-q', '-v', 'ON_ERROR_STOP=1', PG_ADMIN_URL, '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Garage extends Managed {
  endpoint: string;
  keyId: string;
  secret: string;
}

/** A single Garage node with `bucket` and a key that may read and write it (as crates/test-support/src/s3.rs). */
async function startGarage(programs: Programs, dir: string, bucket: string): Promise<Garage> {
  mkdirSync(dir, { recursive: true });
  const [s3Port, rpcPort] = [await freePort(), await freePort()];
  const config = join(dir, 'garage.toml');
  writeFileSync(
    config,
    `metadata_dir = "${dir}/meta"
data_dir = "${dir}/data"
db_engine = "sqlite"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:${rpcPort}"
rpc_public_addr = "127.0.0.1:${rpcPort}"
rpc_secret = "${randomBytes(32).toString('hex')}"

[s3_api]
s3_region = "${GARAGE_REGION}"
api_bind_addr = "127.0.0.1:${s3Port}"
`,
  );
  const logFile = join(dir, 'garage.log');
  const env = { ...cleanEnv(), RUST_LOG: 'warn' };
  const managed = spawnLogged(programs.garage, ['-c', config, 'server'], env, logFile);
  const garage = (...args: string[]) =>
    execFileSync(programs.garage, ['-c', config, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  try {
    // The command line talks to the node over RPC: it answers once the node is up.
    await until('Garage did not answer `garage status`', 30_000, () => {
      exitedEarly(managed.child, 'Garage', logFile);
      try {
        garage('status');
        return true;
      } catch {
        return false;
      }
    });
    const node = garage('node', 'id', '-q').trim().split('@')[0] ?? '';
    garage('layout', 'assign', '-z', 'dc1', '-c', '1G', node);
    garage('layout', 'apply', '--version', '1');
    const keyId = `GK${randomBytes(12).toString('hex')}`;
    const secret = randomBytes(32).toString('hex');
    garage('key', 'import', '--yes', '-n', 'selfsound-scale-out', keyId, secret);
    garage('bucket', 'create', bucket);
    garage('bucket', 'allow', '--read', '--write', '--owner', bucket, '--key', 'selfsound-scale-out');
    return { ...managed, endpoint: `http://127.0.0.1:${s3Port}`, keyId, secret };
  } catch (error) {
    await managed.stop();
    throw new Error(`Garage set-up failed: ${String(error)}\n${tail(logFile)}`, { cause: error });
  }
}

/** aiosmtpd keeping every message it receives in the Maildir `maildir`. */
async function startSmtp(programs: Programs, maildir: string, logFile: string): Promise<Managed & { port: number }> {
  for (const sub of ['tmp', 'new', 'cur']) mkdirSync(join(maildir, sub), { recursive: true });
  const port = await freePort();
  const managed = spawnLogged(
    programs.aiosmtpd,
    ['-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', maildir],
    cleanEnv(),
    logFile,
  );
  await until('aiosmtpd did not listen', 30_000, () => {
    exitedEarly(managed.child, 'aiosmtpd', logFile);
    return listens(port);
  });
  return { ...managed, port };
}

/**
 * Starts the topology. On any failure what was started is stopped again and the error says
 * which part failed (with its log).
 */
export async function startTopology(): Promise<{ info: TopologyInfo; stop: () => Promise<void> }> {
  const programs = findPrograms();
  const root = mkdtempSync(join(tmpdir(), 'selfsound-scale-out-'));
  const keep = Boolean(process.env.SELFSOUND_E2E_KEEP_DATA);
  const stack: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const undo of stack.reverse()) {
      try {
        await undo();
      } catch (error) {
        console.error(`[scale-out] stopping: ${String(error)}`);
      }
    }
    stack.length = 0;
    if (keep) console.log(`[scale-out] kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };

  try {
    const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const database = `selfsound_scale_out_${suffix}`;
    psql(programs, `CREATE DATABASE ${database}`);
    stack.push(async () => psql(programs, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

    const bucket = `selfsound-scale-out-${suffix.replace(/_/g, '-')}`;
    const garage = await startGarage(programs, join(root, 'garage'), bucket);
    stack.push(() => garage.stop());

    const smtp = await startSmtp(programs, join(root, 'mail'), join(root, 'smtp.log'));
    stack.push(() => smtp.stop());

    const caddyPort = await freePort();
    const url = `http://127.0.0.1:${caddyPort}`;
    const shared = {
      ...cleanEnv(),
      RUST_LOG: 'info',
      // As deploy/compose.yaml runs them: one JSON object a line.
      SELFSOUND_LOG_FORMAT: 'json',
      DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`),
      SELFSOUND_JWT_SECRET: randomBytes(32).toString('hex'),
      SELFSOUND_S3_BUCKET: bucket,
      AWS_ENDPOINT: garage.endpoint,
      AWS_REGION: GARAGE_REGION,
      AWS_ACCESS_KEY_ID: garage.keyId,
      AWS_SECRET_ACCESS_KEY: garage.secret,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SELFSOUND_PUBLIC_URL: url,
      SELFSOUND_TRUSTED_PROXIES: '127.0.0.1/32',
      SELFSOUND_WEB_DIR: DIST_DIR,
      // Federation on, as an operator turns it on (docs/federation.md): on a loopback http
      // address it runs in its test mode (federation.journey.ts, with a peer on loopback).
      SELFSOUND_FEDERATION: 'on',
    };
    // Both at once, as compose starts them: the migrations take an advisory lock.
    const processes: (AppProcess & { managed: Managed })[] = [];
    for (const name of ['app1', 'app2']) {
      const port = await freePort();
      const dataDir = join(root, name);
      mkdirSync(dataDir, { mode: 0o700 });
      const logFile = join(root, `${name}.log`);
      const env = { ...shared, SELFSOUND_DATA_DIR: dataDir, SELFSOUND_BIND: `127.0.0.1:${port}` };
      const managed = spawnLogged(programs.selfsound, ['serve'], env, logFile);
      stack.push(() => managed.stop());
      const address = `127.0.0.1:${port}`;
      processes.push({ name, address, url: `http://${address}`, pid: managed.child.pid ?? 0, logFile, managed });
    }
    // Ready: the database and the bucket answer each process.
    for (const p of processes) {
      await until(`${p.name} was not ready (${p.url}/readyz); its log:\n${tail(p.logFile)}`, 120_000, () => {
        exitedEarly(p.managed.child, p.name, p.logFile);
        return answers(`${p.url}/readyz`);
      });
    }

    const caddyDir = join(root, 'caddy');
    mkdirSync(caddyDir);
    const caddyLog = join(root, 'caddy.log');
    const caddy = spawnLogged(
      programs.caddy,
      ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'],
      {
        ...cleanEnv(),
        // Caddy keeps its state (certificates, autosaved config) here, not in the home folder.
        HOME: caddyDir,
        XDG_DATA_HOME: caddyDir,
        XDG_CONFIG_HOME: caddyDir,
        SITE_ADDRESS: url,
        SELFSOUND_UPSTREAMS: processes.map((p) => p.address).join(' '),
        SELFSOUND_CADDY_ADMIN: 'off',
      },
      caddyLog,
    );
    // SIGQUIT: Caddy leaves at once (on SIGTERM it waits for its connections to wind down).
    stack.push(() => caddy.stop('SIGQUIT'));
    await until(`Caddy did not answer ${url}/readyz; its log:\n${tail(caddyLog)}`, 30_000, () => {
      exitedEarly(caddy.child, 'Caddy', caddyLog);
      return answers(`${url}/readyz`);
    });

    const info: TopologyInfo = {
      root,
      url,
      appUrl: `${url}/app`,
      caddyLog,
      database,
      bucket,
      processes: processes.map(({ name, address, url, pid, logFile }) => ({ name, address, url, pid, logFile })),
    };
    return { info, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
