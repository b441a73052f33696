import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '../lib/config';
import { getToken } from '../lib/token-storage';
import { consumeTokenFromAddress } from './start';

describe('consumeTokenFromAddress', () => {
  it('stores a token brought back by Google sign-in and moves on to /home', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?token=google-jwt`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('google-jwt');
    expect(window.location.pathname).toBe(`${BASE_PATH}/home`);
    expect(window.location.search).toBe('');
  });

  it('stores a token on any other page and only cleans the address', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/settings#token=abc`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('abc');
    expect(`${window.location.pathname}${window.location.hash}`).toBe(`${BASE_PATH}/settings`);
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
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?next=%2Fsettings&token=google-jwt`);
    consumeTokenFromAddress();
    expect(getToken()).toBe('google-jwt');
    expect(`${window.location.pathname}${window.location.search}`).toBe(`${BASE_PATH}/settings`);
  });

  it('ignores a ?next= that is not an app path', () => {
    window.history.replaceState(null, '', `${BASE_PATH}/sign-in?next=https%3A%2F%2Fevil.example&token=t`);
    consumeTokenFromAddress();
    expect(`${window.location.pathname}${window.location.search}`).toBe(`${BASE_PATH}/home`);
  });
});
