// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RESERVED_LOGINS, isReservedLogin } from './reserved-logins';

// The cases of the server's own test (values: reserved_logins_are_refused_in_any_case_and_spelling).
describe('isReservedLogin', () => {
  it.each([
    'admin',
    'ADMIN',
    'Administrator',
    'root',
    'support',
    'help',
    'moderator',
    'mod',
    'staff',
    'system',
    'selfsound',
    'security',
    'official',
    'abuse',
    'postmaster',
    'webmaster',
    'info',
    'contact',
    'team',
    'owner',
    'null',
    'undefined',
    'anonymous',
    'ad_min',
    'Ad-Min',
    '@Root',
    'self_sound',
    'selfsound_team',
    'the-selfsound',
  ])('refuses %s, whatever the case and with or without _ and -', (login) => {
    expect(isReservedLogin(login)).toBe(true);
  });

  it.each(['admiral', 'rooted', 'helpful', 'moderato', 'systems_band', 'info_dj', 'stafford', 'ada'])(
    'lets %s through',
    (login) => {
      expect(isReservedLogin(login)).toBe(false);
    },
  );

  it('refuses every word of the list', () => {
    for (const login of RESERVED_LOGINS) expect(isReservedLogin(login.toUpperCase()), login).toBe(true);
  });
});
