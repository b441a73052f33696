// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/http';
import { describeSignUpError } from './sign-up-errors';

const fail = (status: number, detail?: unknown) =>
  describeSignUpError(new ApiError(status, detail === undefined ? undefined : { detail }));

describe('describeSignUpError (spec §8 Sign-up)', () => {
  it('400 "already exists and is verified": sign in instead, and the e-mail field says so', () => {
    expect(fail(400, 'User already exists and is verified')).toEqual({
      formError: 'An account with this email already exists. Please sign in instead.',
      fieldErrors: { email: 'Account already exists' },
    });
  });

  it('400 "already exists" (not verified): the verification-sent notice', () => {
    expect(
      fail(400, 'User already exists but is not verified. A new verification email has been sent.'),
    ).toEqual({
      notice: 'A verification email has been sent to your email address. Please check your inbox.',
      fieldErrors: {},
    });
  });

  it('400 "Password must include": the detail on the password field plus a hint above', () => {
    const detail = 'Password must include an uppercase letter, and a special character';
    expect(fail(400, detail)).toEqual({
      formError: 'Please check your password requirements.',
      fieldErrors: { password: detail },
    });
  });

  it('400 "Name cannot be empty": Name is required', () => {
    expect(fail(400, 'Name cannot be empty')).toEqual({ fieldErrors: { name: 'Name is required' } });
  });

  it('400 about the e-mail: the detail on the e-mail field', () => {
    expect(fail(400, 'Please enter a valid email address')).toEqual({
      fieldErrors: { email: 'Please enter a valid email address' },
    });
    expect(fail(400, 'E-mail domain not allowed')).toEqual({
      fieldErrors: { email: 'E-mail domain not allowed' },
    });
  });

  it('other 400: the detail, or Registration failed', () => {
    expect(fail(400, 'Name must be 15 characters or less')).toEqual({
      formError: 'Name must be 15 characters or less',
      fieldErrors: {},
    });
    expect(fail(400)).toEqual({ formError: 'Registration failed', fieldErrors: {} });
  });

  it('422: per-field messages plus "Please check your input and try again"', () => {
    expect(
      fail(422, [
        { loc: ['body', 'email'], msg: 'value is not a valid email address' },
        { loc: ['body', 'password'], msg: 'field required' },
        { loc: ['body', 'name'], msg: 'field required' },
      ]),
    ).toEqual({
      formError: 'Please check your input and try again',
      fieldErrors: {
        email: 'Please enter a valid email address',
        password: 'Invalid password',
        name: 'Invalid name',
      },
    });
    expect(fail(422, 'Json deserialize error: missing field `password`')).toEqual({
      formError: 'Please check your input and try again',
      fieldErrors: { password: 'Invalid password' },
    });
    expect(fail(422, 'malformed body')).toEqual({
      formError: 'Please check your input and try again',
      fieldErrors: {},
    });
  });

  it('500: Server error', () => {
    expect(fail(500, 'boom')).toEqual({
      formError: 'Server error. Please try again later.',
      fieldErrors: {},
    });
  });

  it.each([401, 403, 404, 429, 503])('%i: An unexpected error occurred', (status) => {
    expect(fail(status, 'whatever')).toEqual({
      formError: 'An unexpected error occurred. Please try again.',
      fieldErrors: {},
    });
  });

  it('network failure: Network error', () => {
    expect(describeSignUpError(new NetworkError(new TypeError('fetch failed')))).toEqual({
      formError: 'Network error. Please check your connection and try again.',
      fieldErrors: {},
    });
  });
});
