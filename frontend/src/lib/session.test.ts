// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readSignInState, safeReturnPath } from './session';

describe('safeReturnPath (where signing in may bring someone back)', () => {
  it.each(['/settings', '/profile', '/user/7?tab=posts#top', '/search?q=a%20b'])('accepts the app path %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/settings'],
    ['a protocol-relative URL', '//evil.example/settings'],
    ['a backslash trick', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'settings'],
    ['whitespace', '/set tings'],
    ['the sign-in page itself', '/sign-in'],
    ['the sign-up page', '/sign-up?x=1'],
    ['the verify page', '/verify'],
    ['nothing', ''],
    ['a non-string', { pathname: '/settings' }],
  ])('refuses %s', (_, value) => {
    expect(safeReturnPath(value)).toBeNull();
  });
});

describe('readSignInState', () => {
  it('reads a safe return path and a notice', () => {
    expect(readSignInState({ from: '/settings', notice: 'Session expired. Please sign in again.' })).toEqual({
      from: '/settings',
      notice: { text: 'Session expired. Please sign in again.', tone: 'warning' },
    });
    expect(readSignInState({ notice: 'Your account has been deleted.', tone: 'info' })).toEqual({
      from: null,
      notice: { text: 'Your account has been deleted.', tone: 'info' },
    });
  });

  it('ignores anything else', () => {
    expect(readSignInState(null)).toEqual({ from: null, notice: null });
    expect(readSignInState({ from: 'https://evil.example', notice: 42 })).toEqual({ from: null, notice: null });
  });
});
