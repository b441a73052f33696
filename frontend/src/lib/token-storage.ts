/**
 * Where the access token lives in the browser (spec §4 Login, §7).
 *
 * Sign-in stores the token in several places so that a browser that drops one of them (private
 * mode, storage cleared by the OS, a cookie blocked) still keeps the session: local storage,
 * session storage, a cookie that lasts 86400 s, and a backup key in local storage. Reading
 * recovers the token from any of them, including the older `authToken` key, and writes it back
 * to the places that lost it.
 */

export const TOKEN_KEY = 'access_token';
export const LEGACY_TOKEN_KEY = 'authToken';
export const BACKUP_TOKEN_KEY = 'authToken_backup';
export const TOKEN_COOKIE = 'access_token';
export const TOKEN_COOKIE_MAX_AGE = 86400;

/** The parameter names a token may arrive under in the page address (query or hash). */
const URL_TOKEN_PARAMS = ['token', 'access_token'] as const;

function safely<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

function readCookie(name: string): string | null {
  return safely(() => {
    for (const part of document.cookie.split(';')) {
      const [rawKey, ...rest] = part.trim().split('=');
      if (rawKey === name) {
        const value = decodeURIComponent(rest.join('='));
        return value === '' ? null : value;
      }
    }
    return null;
  }, null);
}

function cookieAttributes(maxAge: number): string {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  return `; path=/; max-age=${maxAge}; SameSite=Lax${secure}`;
}

function writeCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}${cookieAttributes(TOKEN_COOKIE_MAX_AGE)}`;
}

function deleteCookie(name: string): void {
  document.cookie = `${name}=${cookieAttributes(0)}`;
}

/** Each place in the order it is consulted when reading. */
const places: ReadonlyArray<{ read: () => string | null }> = [
  { read: () => safely(() => localStorage.getItem(TOKEN_KEY), null) },
  { read: () => safely(() => sessionStorage.getItem(TOKEN_KEY), null) },
  { read: () => safely(() => localStorage.getItem(LEGACY_TOKEN_KEY), null) },
  { read: () => safely(() => sessionStorage.getItem(LEGACY_TOKEN_KEY), null) },
  { read: () => readCookie(TOKEN_COOKIE) },
  { read: () => safely(() => localStorage.getItem(BACKUP_TOKEN_KEY), null) },
];

/**
 * Stores the token in every place. Returns false when it could not be stored anywhere it can be
 * read back from, which sign-in reports as a storage failure.
 */
export function storeToken(token: string): boolean {
  const writes = [
    () => localStorage.setItem(TOKEN_KEY, token),
    () => sessionStorage.setItem(TOKEN_KEY, token),
    () => writeCookie(TOKEN_COOKIE, token),
    () => localStorage.setItem(BACKUP_TOKEN_KEY, token),
  ];
  for (const write of writes) {
    safely(write, undefined);
  }
  return readToken() === token;
}

/** The first token found in any place, without repairing the others. */
function readToken(): string | null {
  for (const place of places) {
    const value = place.read();
    if (value) return value;
  }
  return null;
}

function storedEverywhere(token: string): boolean {
  return (
    safely(() => localStorage.getItem(TOKEN_KEY), null) === token &&
    safely(() => sessionStorage.getItem(TOKEN_KEY), null) === token &&
    safely(() => localStorage.getItem(BACKUP_TOKEN_KEY), null) === token &&
    readCookie(TOKEN_COOKIE) === token
  );
}

/** The stored token, recovered from whichever place still has it; null when signed out. */
export function getToken(): string | null {
  const token = readToken();
  if (token && !storedEverywhere(token)) {
    // Some place lost it (storage cleared, cookie expired): put it back everywhere.
    storeToken(token);
  }
  return token;
}

/** Removes the token from every place. */
export function clearTokens(): void {
  safely(() => localStorage.removeItem(TOKEN_KEY), undefined);
  safely(() => sessionStorage.removeItem(TOKEN_KEY), undefined);
  safely(() => localStorage.removeItem(LEGACY_TOKEN_KEY), undefined);
  safely(() => sessionStorage.removeItem(LEGACY_TOKEN_KEY), undefined);
  safely(() => localStorage.removeItem(BACKUP_TOKEN_KEY), undefined);
  safely(() => deleteCookie(TOKEN_COOKIE), undefined);
}

/**
 * Takes a token out of the page address (query `token` / `access_token`, or the same names in
 * the hash) and removes it from the address with history.replaceState, keeping every other
 * parameter. Returns the token, or null when the address carries none.
 *
 * It does not store the token: whether a token in the address may start a session depends on
 * the page (app/start.ts accepts one only on the sign-in page). Storing any token found on any
 * page would let a crafted link sign a visitor in to someone else's account (login CSRF).
 */
export function takeTokenFromUrl(): string | null {
  const url = new URL(window.location.href);
  let token: string | null = null;
  let found = false;

  for (const name of URL_TOKEN_PARAMS) {
    if (!url.searchParams.has(name)) continue;
    found = true;
    token ||= url.searchParams.get(name);
    url.searchParams.delete(name);
  }

  const hash = url.hash.replace(/^#/, '');
  if (hash.includes('=')) {
    const hashParams = new URLSearchParams(hash);
    let hashChanged = false;
    for (const name of URL_TOKEN_PARAMS) {
      if (!hashParams.has(name)) continue;
      token ||= hashParams.get(name);
      hashParams.delete(name);
      hashChanged = true;
    }
    if (hashChanged) {
      found = true;
      const rest = hashParams.toString();
      url.hash = rest ? `#${rest}` : '';
    }
  }

  if (!found) return null;
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return token || null;
}

/** Where this tab notes that it started a Google sign-in (sessionStorage: per tab, per origin). */
const HANDOFF_KEY = 'google-sign-in-started';
/** How long a started Google sign-in may take before its hand-off is refused. */
const HANDOFF_LIFETIME_MS = 15 * 60 * 1000;

/**
 * Notes that this tab is leaving for Google sign-in. Only a tab that did so accepts a token in
 * the sign-in page's address on the way back: a link with someone else's token, opened from
 * anywhere, must not sign the visitor in to the sender's account (login CSRF).
 */
export function markHandoffStarted(): void {
  safely(() => sessionStorage.setItem(HANDOFF_KEY, String(Date.now())), undefined);
}

/** Whether this tab started a Google sign-in lately; the note is used up either way. */
export function takeHandoffMark(): boolean {
  const started = Number(safely(() => sessionStorage.getItem(HANDOFF_KEY), null));
  safely(() => sessionStorage.removeItem(HANDOFF_KEY), undefined);
  return started > 0 && Date.now() - started < HANDOFF_LIFETIME_MS;
}
