// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  STRENGTH_LABELS,
  confirmationError,
  isPasswordRuleDetail,
  newPasswordError,
  passwordChecklist,
  passwordStrength,
} from './password-rules';

const met = (password: string) =>
  Object.fromEntries(passwordChecklist(password).map((item) => [item.id, item.met]));

describe('passwordChecklist', () => {
  it('lists the five requirements in the spec words', () => {
    expect(passwordChecklist('').map((item) => item.label)).toEqual([
      'At least 6 characters',
      'An uppercase letter',
      'A lowercase letter',
      'A number',
      'A special character',
    ]);
  });

  it('marks nothing for an empty password', () => {
    expect(Object.values(met(''))).toEqual([false, false, false, false, false]);
  });

  it('checks each requirement on its own', () => {
    expect(met('abcde')).toMatchObject({ length: false, lowercase: true, uppercase: false });
    expect(met('abcdef')).toMatchObject({ length: true });
    expect(met('A')).toMatchObject({ uppercase: true, lowercase: false });
    expect(met('7')).toMatchObject({ number: true, special: false });
    expect(met('!')).toMatchObject({ special: true, number: false });
  });

  it('does not count a space as a special character (same rule as the server)', () => {
    expect(met('a b')).toMatchObject({ special: false });
  });

  it('counts letters outside ASCII by case', () => {
    expect(met('É')).toMatchObject({ uppercase: true });
    expect(met('é')).toMatchObject({ lowercase: true });
  });
});

describe('passwordStrength', () => {
  it('is invalid while any requirement is missing', () => {
    expect(passwordStrength('')).toBe('invalid');
    expect(passwordStrength('abcdefghijklmnop1!')).toBe('invalid'); // no uppercase
    expect(passwordStrength('ABCDEFGHIJKLMNOP1!')).toBe('invalid'); // no lowercase
    expect(passwordStrength('Abcdefghijklmnop!')).toBe('invalid'); // no number
    expect(passwordStrength('Abcdefghijklmnop1')).toBe('invalid'); // no special character
    expect(passwordStrength('Ab1!')).toBe('invalid'); // too short
  });

  it('is weak with neither 12 characters nor 6 distinct ones', () => {
    // 7 characters, 5 distinct (A a 1 ! b)
    expect(passwordStrength('Aa1!aab')).toBe('weak');
  });

  it('is ok with 6 or more distinct characters but fewer than 12 characters', () => {
    expect(passwordStrength('Aa1!bc')).toBe('ok');
  });

  it('is ok with 12 or more characters but fewer than 6 distinct ones', () => {
    expect(passwordStrength('Aa1!Aa1!Aa1!')).toBe('ok');
  });

  it('is strong with both', () => {
    expect(passwordStrength('Str0ng!Passw0rd')).toBe('strong');
  });

  it('has the spec labels', () => {
    expect(STRENGTH_LABELS).toEqual({
      weak: 'Weak password',
      ok: 'Ok password',
      strong: 'Strong password',
    });
  });
});

describe('a new password (sign-up, reset, change)', () => {
  it('is required and at least 8 characters, in the sign-up words', () => {
    expect(newPasswordError('')).toBe('Password is required');
    expect(newPasswordError('Ab1!xyz')).toBe('Password must be at least 8 characters');
    expect(newPasswordError('Ab1!xyzw')).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(newPasswordError('🎵🎵🎵🎵')).toBe('Password must be at least 8 characters');
  });

  it("must be repeated exactly in 'Confirm password'", () => {
    expect(confirmationError('Ab1!xyzw', 'Ab1!xyzw')).toBeUndefined();
    expect(confirmationError('Ab1!xyzw', 'Ab1!xyz')).toBe('Passwords do not match');
    expect(confirmationError('Ab1!xyzw', '')).toBe('Passwords do not match');
  });

  it.each([
    ['Password must include an uppercase letter, a number and a special character', true],
    ['Password must be at least 8 characters', true],
    ['This password is too common. Please choose a less common one.', true],
    ['Current password is incorrect', false],
    ['This password reset link is invalid or has expired.', false],
  ])('tells a password-rule detail from others: %s', (detail, rule) => {
    expect(isPasswordRuleDetail(detail)).toBe(rule);
  });
});
