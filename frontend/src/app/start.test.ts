import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '../lib/config';
import { getToken, markHandoffStarted, storeToken } from '../lib/token-storage';
import { consumeTokenFromAddress } from './start';

describe('consumeTokenFromAddress', () => {
  it('stores a token brought back by Google sign-in and moves on to /home', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?token=google-jwt`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('google-jwt');
    expect(window.location.pathname).toBe(`${BASE_PATH}/home`);
    expect(window.location.search).toBe('');
  });

  it('stores a token in the hash of the sign-in page too', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in#token=abc`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('abc');
    expect(`${window.location.pathname}${window.location.hash}`).toBe(`${BASE_PATH}/home`);
  });

  it('does nothing without a token', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?error=google`);
    consumeTokenFromAddress();
    expect(getToken()).toBeNull();
    expect(`${window.location.pathname}${window.location.search}`).toBe(`${BASE_PATH}/sign-in?error=google`);
  });
});

describe('consumeTokenFromAddress with a return path', () => {
  it('goes to the ?next= page that Google sign-in carried through', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?next=%2Fsettings&token=google-jwt`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('google-jwt');
    expect(`${window.location.pathname}${window.location.search}`).toBe(`${BASE_PATH}/settings`);
  });

  it('ignores a ?next= that is not an app path', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?next=https%3A%2F%2Fevil.example&token=t`);
    consumeTokenFromAddress();
    expect(`${window.location.pathname}${window.location.search}`).toBe(`${BASE_PATH}/home`);
  });
});

/** Login CSRF: a crafted link must not sign the visitor in to the sender's account. */
describe('consumeTokenFromAddress on any other page', () => {
  const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

  it.each([
    [`${BASE_PATH}/home?token=x`, `${BASE_PATH}/home`],
    [`${BASE_PATH}/home?access_token=x&tab=1`, `${BASE_PATH}/home?tab=1`],
    [`${BASE_PATH}/settings#token=abc`, `${BASE_PATH}/settings`],
    [`${BASE_PATH}/user/7#access_token=abc&x=1`, `${BASE_PATH}/user/7#x=1`],
    [`${BASE_PATH}/sign-up?token=x`, `${BASE_PATH}/sign-up`],
    [`${BASE_PATH}/sign-in/extra?token=x`, `${BASE_PATH}/sign-in/extra`],
    [`${BASE_PATH}/?token=x`, `${BASE_PATH}/`],
  ])('%s: the token is removed from the address and not stored', (from, to) => {
    window.history.replaceState(null, '', from);
    consumeTokenFromAddress();
    expect(getToken()).toBeNull();
    expect(address()).toBe(to);
  });

  it('does not replace a session already stored', () => {
    storeToken('mine');
    window.history.replaceState(null, '', `${BASE_PATH}/home?token=theirs`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('mine');
    expect(address()).toBe(`${BASE_PATH}/home`);
  });

  it('leaves the #token= of /reset-password to that page, and stores nothing', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/reset-password#token=reset-123`);
    consumeTokenFromAddress();
    expect(getToken()).toBeNull();
    expect(address()).toBe(`${BASE_PATH}/reset-password#token=reset-123`);
  });

  it('accepts the sign-in page with a trailing slash', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in/?token=t`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('t');
    expect(address()).toBe(`${BASE_PATH}/home`);
  });

  it('refuses a sign-in page token in a tab that never set out for Google sign-in', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?token=theirs`);
    consumeTokenFromAddress();
    expect(getToken()).toBeNull();
    expect(address()).toBe(`${BASE_PATH}/sign-in`);
  });

  it('uses the mark once', () => {
    markHandoffStarted();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?token=first`);
    consumeTokenFromAddress();
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?token=second`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('first');
  });
});
