/** Account set-up through the API, for tests whose subject is not sign-up itself. */
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { verificationLink } from './mail';

export const PASSWORD = 'Str0ng!Passw0rd';

let addressesMade = 0;

/**
 * A client address of its own (10.x.y.z, unique in this run: the worker's pid and a counter).
 * The server throttles sign-ups (20 an hour) and sign-ins per client address (and counts wrong
 * passwords), and the whole suite runs from 127.0.0.1; the e2e server trusts X-Forwarded-For
 * (see server.ts), so set-up calls and browsers that sign in name distinct addresses and the
 * browser's own sign-ups keep 127.0.0.1's allowance.
 */
function nextClientAddress(): string {
  addressesMade += 1;
  const n = (process.pid % 200) * 1000 + addressesMade;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Makes every request of `context` (its browser's too) come from an address of its own. */
export async function ownClientAddress(context: BrowserContext): Promise<void> {
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': nextClientAddress() });
}

/** Signs up, follows the e-mailed link and signs in; returns the access token. */
export async function createVerifiedUser(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  email: string,
  name = 'E2E Tester',
): Promise<string> {
  const headers = { 'X-Forwarded-For': nextClientAddress() };
  const signUp = await request.post(`${server.url}/authorization/signup`, {
    data: { email, password: PASSWORD, name },
    headers,
  });
  if (!signUp.ok()) throw new Error(`sign-up failed: ${signUp.status()} ${await signUp.text()}`);
  const link = await verificationLink(server.dataDir, email);
  const verify = await request.get(link, { maxRedirects: 0 });
  if (verify.status() >= 400) throw new Error(`verification failed: ${verify.status()}`);
  const signIn = await request.post(`${server.url}/authorization/logindefault`, {
    data: { email, password: PASSWORD },
    headers,
  });
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
  const body = (await signIn.json()) as { access_token?: string };
  if (!body.access_token) throw new Error('sign-in answered without access_token');
  return body.access_token;
}

/**
 * Signs `page` in with a token the way Google sign-in hands one over: the sign-in page with
 * `?token=`. The app takes it only in a tab that set out for Google sign-in (login CSRF), so this
 * marks the tab as the Google button does, for that one address.
 */
export async function signInThroughAddress(page: Page, appUrl: string, token: string): Promise<void> {
  await page.addInitScript(() => {
    if (window.location.pathname.endsWith('/sign-in') && window.location.search.includes('token=')) {
      window.sessionStorage.setItem('google-sign-in-started', String(Date.now()));
    }
  });
  await page.goto(`${appUrl}/sign-in?token=${encodeURIComponent(token)}`);
}

/** Someone signed up through the API: who they are (the session check's answer) and their token. */
export interface Account {
  id: string;
  name: string;
  login: string;
  email: string;
  token: string;
}

/** createVerifiedUser, then GET /authorization/me for the id and login the server gave. */
export async function signedUpAccount(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  email: string,
  name: string,
): Promise<Account> {
  const token = await createVerifiedUser(request, server, email, name);
  const me = await request.get(`${server.url}/authorization/me`, { headers: { Authorization: `Bearer ${token}` } });
  if (!me.ok()) throw new Error(`the session check failed: ${me.status()}`);
  const body = (await me.json()) as { id: string; name: string; login: string };
  return { id: String(body.id), name: body.name, login: body.login, email, token };
}

/** A lyrics post made through the API (one verse); returns its id. */
export async function lyricsPost(request: APIRequestContext, url: string, token: string, title: string): Promise<string> {
  const res = await request.post(`${url}/posts/lyrics`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { songTitle: title, artistName: 'E2E Band', parts: [{ type: 'verse', lyrics: `words of ${title}` }] },
  });
  if (res.status() !== 201) throw new Error(`lyrics post failed: ${res.status()} ${await res.text()}`);
  return String(((await res.json()) as { id: string }).id);
}
