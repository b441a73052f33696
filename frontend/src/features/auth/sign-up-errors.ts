/**
 * How a failed sign-up is shown (spec §8 Sign-up): a message above the form, messages under
 * fields, or, when the account exists but is not verified yet, the success notice (the server
 * has just sent a new verification e-mail).
 */
import { ApiError, NetworkError } from '../../lib/http';
import type { FieldErrors, SignUpValues } from './validation';

export type SignUpField = keyof SignUpValues;

export interface SignUpFailure {
  /** Shown in an error alert above the form. */
  formError?: string;
  /** Shown under the fields. */
  fieldErrors: FieldErrors<SignUpField>;
  /** Shown as a success notice; the page then continues to /verify like a success. */
  notice?: string;
}

export const SIGN_UP_MESSAGES = {
  alreadyVerified: 'An account with this email already exists. Please sign in instead.',
  accountExists: 'Account already exists',
  verificationSent:
    'A verification email has been sent to your email address. Please check your inbox.',
  checkPassword: 'Please check your password requirements.',
  nameRequired: 'Name is required',
  registrationFailed: 'Registration failed',
  checkInput: 'Please check your input and try again',
  invalidEmail: 'Please enter a valid email address',
  invalidPassword: 'Invalid password',
  invalidName: 'Invalid name',
  serverError: 'Server error. Please try again later.',
  unexpected: 'An unexpected error occurred. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  guest: 'Guest mode error. Please try again.',
  success:
    'Account created! A verification email has been sent to your email address. Please check your inbox.',
} as const;

const MENTIONS_EMAIL = /e-?mail/i;

export function describeSignUpError(error: unknown): SignUpFailure {
  if (error instanceof NetworkError || !(error instanceof ApiError)) {
    return { formError: SIGN_UP_MESSAGES.network, fieldErrors: {} };
  }
  switch (error.status) {
    case 400:
      return describeBadRequest(typeof error.detail === 'string' ? error.detail : '');
    case 422:
      return {
        formError: SIGN_UP_MESSAGES.checkInput,
        fieldErrors: fieldsOfUnprocessable(error.detail),
      };
    case 500:
      return { formError: SIGN_UP_MESSAGES.serverError, fieldErrors: {} };
    default:
      return { formError: SIGN_UP_MESSAGES.unexpected, fieldErrors: {} };
  }
}

function describeBadRequest(detail: string): SignUpFailure {
  if (detail.includes('User already exists and is verified')) {
    return {
      formError: SIGN_UP_MESSAGES.alreadyVerified,
      fieldErrors: { email: SIGN_UP_MESSAGES.accountExists },
    };
  }
  if (detail.includes('already exists')) {
    return { notice: SIGN_UP_MESSAGES.verificationSent, fieldErrors: {} };
  }
  if (detail.includes('Password must include')) {
    return { formError: SIGN_UP_MESSAGES.checkPassword, fieldErrors: { password: detail } };
  }
  if (detail.includes('Name cannot be empty')) {
    return { fieldErrors: { name: SIGN_UP_MESSAGES.nameRequired } };
  }
  if (MENTIONS_EMAIL.test(detail)) {
    return { fieldErrors: { email: detail } };
  }
  return { formError: detail || SIGN_UP_MESSAGES.registrationFailed, fieldErrors: {} };
}

const FIELD_MESSAGES: Record<SignUpField, string> = {
  email: SIGN_UP_MESSAGES.invalidEmail,
  password: SIGN_UP_MESSAGES.invalidPassword,
  name: SIGN_UP_MESSAGES.invalidName,
};

/**
 * Which fields a 422 is about. The detail is either a list of `{loc: [..., field]}` entries
 * (FastAPI style) or a sentence that names the fields.
 */
function fieldsOfUnprocessable(detail: unknown): FieldErrors<SignUpField> {
  const named = new Set<SignUpField>();
  const consider = (text: string) => {
    if (MENTIONS_EMAIL.test(text)) named.add('email');
    if (/password/i.test(text)) named.add('password');
    if (/\bname\b/i.test(text)) named.add('name');
  };
  if (Array.isArray(detail)) {
    for (const entry of detail as unknown[]) {
      if (typeof entry === 'object' && entry !== null && 'loc' in entry) {
        const loc: unknown = entry.loc;
        if (Array.isArray(loc)) consider(loc.map(String).join(' '));
      }
    }
  } else if (typeof detail === 'string') {
    consider(detail);
  }
  const errors: FieldErrors<SignUpField> = {};
  for (const field of named) errors[field] = FIELD_MESSAGES[field];
  return errors;
}
