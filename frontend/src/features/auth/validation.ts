/** Form rules of sign-in and sign-up (spec §5), worded as the spec words them. */
import { newPasswordError } from '../../lib/password-rules';

export const NAME_MAX_LENGTH = 15;
export const SIGN_IN_PASSWORD_MIN = 6;

/** A simple e-mail shape: something@something.something, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailShaped(email: string): boolean {
  return EMAIL_SHAPE.test(email.trim());
}

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface SignInValues {
  email: string;
  password: string;
}

export interface SignUpValues {
  name: string;
  email: string;
  password: string;
}

export function validateEmail(email: string): string | undefined {
  if (email.trim() === '') return 'Email is required';
  if (!isEmailShaped(email)) return 'Please enter a valid email address';
  return undefined;
}

export function validateSignIn(values: SignInValues): FieldErrors<keyof SignInValues> {
  const errors: FieldErrors<keyof SignInValues> = {};
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (values.password === '') errors.password = 'Password is required';
  else if ([...values.password].length < SIGN_IN_PASSWORD_MIN)
    errors.password = 'Password must be at least 6 characters';
  return errors;
}

export function validateSignUp(values: SignUpValues): FieldErrors<keyof SignUpValues> {
  const errors: FieldErrors<keyof SignUpValues> = {};
  const name = values.name.trim();
  if (name === '') errors.name = 'Name is required';
  else if ([...name].length > NAME_MAX_LENGTH) errors.name = 'Name must be 15 characters or less';
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  const password = newPasswordError(values.password);
  if (password) errors.password = password;
  return errors;
}

/** The name input keeps at most 15 characters (typing or pasting more is cut off). */
export function truncateName(name: string): string {
  return [...name].slice(0, NAME_MAX_LENGTH).join('');
}

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
