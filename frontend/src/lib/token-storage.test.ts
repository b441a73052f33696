import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BACKUP_TOKEN_KEY,
  LEGACY_TOKEN_KEY,
  TOKEN_KEY,
  clearTokens,
  getToken,
  storeToken,
  takeTokenFromUrl,
} from './token-storage';

function cookieValue(name: string): string | undefined {
  return document.cookie
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

function wipeAllButNothing() {
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'access_token=; path=/; max-age=0';
}

describe('storeToken', () => {
  it('writes the token to local storage, session storage, the cookie and the backup key', () => {
    expect(storeToken('tok-1')).toBe(true);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('tok-1');
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe('tok-1');
    expect(localStorage.getItem(BACKUP_TOKEN_KEY)).toBe('tok-1');
    expect(cookieValue('access_token')).toBe('tok-1');
  });

  it('sets the cookie for the whole site for 86400 seconds, SameSite=Lax', () => {
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
      descriptor.set!.call(document, value);
    });
    storeToken('tok-2');
    const write = writes.find((w) => w.startsWith('access_token=tok-2'));
    expect(write).toBeDefined();
    expect(write).toContain('path=/');
    expect(write).toContain('max-age=86400');
    expect(write).toContain('SameSite=Lax');
    // jsdom pages are http://, so no Secure flag (it would stop the cookie from being set).
    expect(write).not.toContain('Secure');
  });

  it('reports failure when the token cannot be kept anywhere', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    vi.spyOn(document, 'cookie', 'set').mockImplementation(() => {});
    expect(storeToken('tok-3')).toBe(false);
  });
});

describe('getToken', () => {
  afterEach(() => wipeAllButNothing());

  it('is null when nothing is stored', () => {
    expect(getToken()).toBeNull();
  });

  const places: Array<[string, () => void]> = [
    ['local storage access_token', () => localStorage.setItem(TOKEN_KEY, 'only-here')],
    ['session storage access_token', () => sessionStorage.setItem(TOKEN_KEY, 'only-here')],
    ['local storage authToken', () => localStorage.setItem(LEGACY_TOKEN_KEY, 'only-here')],
    ['session storage authToken', () => sessionStorage.setItem(LEGACY_TOKEN_KEY, 'only-here')],
    ['the access_token cookie', () => (document.cookie = 'access_token=only-here; path=/')],
    ['the backup key', () => localStorage.setItem(BACKUP_TOKEN_KEY, 'only-here')],
  ];

  it.each(places)('recovers the token from %s alone and puts it back everywhere', (_, put) => {
    put();
    expect(getToken()).toBe('only-here');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('only-here');
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe('only-here');
    expect(localStorage.getItem(BACKUP_TOKEN_KEY)).toBe('only-here');
    expect(cookieValue('access_token')).toBe('only-here');
  });

  it('prefers local storage when places disagree', () => {
    localStorage.setItem(TOKEN_KEY, 'newest');
    localStorage.setItem(BACKUP_TOKEN_KEY, 'older');
    expect(getToken()).toBe('newest');
  });
});

describe('clearTokens', () => {
  it('removes the token from every place, including the legacy keys', () => {
    storeToken('tok-4');
    localStorage.setItem(LEGACY_TOKEN_KEY, 'tok-4');
    sessionStorage.setItem(LEGACY_TOKEN_KEY, 'tok-4');
    clearTokens();
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(BACKUP_TOKEN_KEY)).toBeNull();
    expect(cookieValue('access_token')).toBeUndefined();
  });
});

describe('takeTokenFromUrl', () => {
  const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

  it('takes a ?token= and removes only it from the address, without storing it', () => {
    window.history.replaceState(null, '', '/app/sign-in?token=abc&keep=1');
    expect(takeTokenFromUrl()).toBe('abc');
    expect(getToken()).toBeNull();
    expect(address()).toBe('/app/sign-in?keep=1');
  });

  it('takes a ?access_token=', () => {
    window.history.replaceState(null, '', '/app/home?access_token=def');
    expect(takeTokenFromUrl()).toBe('def');
    expect(getToken()).toBeNull();
    expect(address()).toBe('/app/home');
  });

  it('takes a token in the hash and keeps the rest of the hash', () => {
    window.history.replaceState(null, '', '/app/sign-in#access_token=ghi&verified=true');
    expect(takeTokenFromUrl()).toBe('ghi');
    expect(address()).toBe('/app/sign-in#verified=true');
  });

  it('removes an empty token parameter too, and says there was no token', () => {
    window.history.replaceState(null, '', '/app/home?token=&x=1#token=');
    expect(takeTokenFromUrl()).toBeNull();
    expect(address()).toBe('/app/home?x=1');
  });

  it('leaves an address without a token alone', () => {
    window.history.replaceState(null, '', '/app/sign-in?error=google#verified=true');
    expect(takeTokenFromUrl()).toBeNull();
    expect(getToken()).toBeNull();
    expect(address()).toBe('/app/sign-in?error=google#verified=true');
  });
});
