/**
 * Google sign-in end to end: the real server configured against a small OpenID Connect
 * provider (`cargo run -p api --example oidc_provider`), which shows an approval page like
 * Google's. Sign-in and sign-up both come back signed in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './support/fixtures';
import { FRONTEND_DIR, freePort, startServer, type RunningServer } from './support/server';

const PROVIDER_BIN = process.env.OIDC_PROVIDER_BIN ?? resolve(FRONTEND_DIR, '../target/debug/examples/oidc_provider');

let provider: ChildProcess | undefined;
let server: RunningServer | undefined;

async function startProvider(project: string): Promise<string> {
  if (!existsSync(PROVIDER_BIN)) {
    throw new Error(`${PROVIDER_BIN} is missing: cargo build -p api --example oidc_provider`);
  }
  const port = await freePort();
  const child = spawn(PROVIDER_BIN, [], {
    env: {
      ...process.env,
      OIDC_TEST_PORT: String(port),
      OIDC_TEST_CLIENT_ID: 'selfsound-e2e',
      OIDC_TEST_CLIENT_SECRET: 'e2e-secret',
      OIDC_TEST_EMAIL: `gina-${project}@example.com`,
      OIDC_TEST_NAME: 'Gina Google',
      OIDC_TEST_SUB: `google-sub-${project}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  provider = child;
  const issuer = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the OIDC test provider did not start')), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /OIDC test provider at (\S+)/.exec(chunk.toString());
      if (match?.[1]) {
        clearTimeout(timer);
        ok(match[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`the OIDC test provider exited (${code})`)));
  });
  return issuer;
}

test.beforeAll(async ({}, testInfo) => {
  const issuer = await startProvider(testInfo.project.name);
  server = await startServer({
    name: `google-${testInfo.project.name}`,
    env: { GOOGLE_CLIENT_ID: 'selfsound-e2e', GOOGLE_CLIENT_SECRET: 'e2e-secret', OIDC_ISSUER_URL: issuer },
  });
});

test.afterAll(async () => {
  await server?.stop();
  provider?.kill('SIGTERM');
});

test('Google sign-in through the provider lands signed in', async ({ page, shot }) => {
  const app = server!.appUrl;
  await page.goto(`${app}/sign-in`);
  const google = page.getByRole('button', { name: 'Continue with Google' }).or(page.getByRole('link', { name: 'Continue with Google' }));
  await expect(google).toBeEnabled();
  await expect(page.getByText('Google sign-in is not set up on this server.')).toHaveCount(0);
  await google.click();

  // The provider's approval page, then back to us with a token.
  await expect(page.getByRole('heading', { name: 'Sign in with the test provider' })).toBeVisible();
  await shot('google-provider');
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(`${app}/home`);
  await expect(page).not.toHaveURL(/token=/);
  await shot('google-signed-in');

  // Signed in for real: a protected page opens, and the account carries Google's name.
  await page.goto(`${app}/settings`);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const me = await page.evaluate(async (api) => {
    const token = localStorage.getItem('access_token');
    const res = await fetch(`${api}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()) as { id: string; name: string };
  }, server!.url);
  expect(me.name).toBe('Gina Google');

  // Log out, then "Sign up with Google" finds the same account again.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${app}/sign-in`);
  await page.goto(`${app}/sign-up`);
  await page.getByRole('button', { name: 'Sign up with Google' }).or(page.getByRole('link', { name: 'Sign up with Google' })).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(`${app}/home`);
  const again = await page.evaluate(async (api) => {
    const token = localStorage.getItem('access_token');
    const res = await fetch(`${api}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()) as { id: string; name: string };
  }, server!.url);
  expect(again.id).toBe(me.id);
});

test('cancelling at the provider comes back with a clear message', async ({ page, shot }) => {
  const app = server!.appUrl;
  await page.goto(`${app}/sign-in`);
  await page.getByRole('button', { name: 'Continue with Google' }).or(page.getByRole('link', { name: 'Continue with Google' })).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page.getByText('Google sign-in failed. Please try again.')).toBeVisible();
  await expect(page).toHaveURL(`${app}/sign-in`);
  await shot('google-cancelled');
});
