// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { truncateName, validateSignIn, validateSignUp } from './validation';

describe('validateSignIn (spec §5 Login)', () => {
  it('requires the e-mail and the password', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('wants a simple e-mail shape', () => {
    for (const email of ['ada', 'ada@', 'ada@example', '@example.com', 'ada lovelace@example.com']) {
      expect(validateSignIn({ email, password: 'secret1' }).email).toBe(
        'Please enter a valid email address',
      );
    }
    expect(validateSignIn({ email: ' ada@example.com ', password: 'secret1' })).toEqual({});
  });

  it('wants at least 6 characters of password', () => {
    expect(validateSignIn({ email: 'a@b.co', password: '12345' }).password).toBe(
      'Password must be at least 6 characters',
    );
    expect(validateSignIn({ email: 'a@b.co', password: '123456' })).toEqual({});
  });
});

describe('validateSignUp (spec §5 Sign-up)', () => {
  const ok = { name: 'Ada', email: 'ada@example.com', password: 'Str0ng!Pass' };

  it('accepts a complete form', () => {
    expect(validateSignUp(ok)).toEqual({});
  });

  it('requires a name, and at most 15 characters of it', () => {
    expect(validateSignUp({ ...ok, name: '   ' }).name).toBe('Name is required');
    expect(validateSignUp({ ...ok, name: 'x'.repeat(16) }).name).toBe(
      'Name must be 15 characters or less',
    );
    expect(validateSignUp({ ...ok, name: 'x'.repeat(15) }).name).toBeUndefined();
  });

  it('requires a valid e-mail', () => {
    expect(validateSignUp({ ...ok, email: '' }).email).toBe('Email is required');
    expect(validateSignUp({ ...ok, email: 'nope' }).email).toBe('Please enter a valid email address');
  });

  it('requires at least 8 characters of password', () => {
    expect(validateSignUp({ ...ok, password: '' }).password).toBe('Password is required');
    expect(validateSignUp({ ...ok, password: 'Ab1!xyz' }).password).toBe(
      'Password must be at least 8 characters',
    );
    expect(validateSignUp({ ...ok, password: 'Ab1!wxyz' }).password).toBeUndefined();
  });
});

describe('truncateName', () => {
  it('keeps at most 15 characters', () => {
    expect(truncateName('abcdefghijklmnopqrst')).toBe('abcdefghijklmno');
    expect(truncateName('short')).toBe('short');
  });
});
