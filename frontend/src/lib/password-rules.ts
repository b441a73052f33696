/**
 * The rules of a new password, wherever one is chosen (sign-up, reset, change in Settings): the
 * checklist and strength meter (spec §4 Password strength, §5 Sign-up), the form checks before
 * sending, and how to recognise the server's word on them.
 * The character classes match the server's rule: any upper-case or lower-case letter, an ASCII
 * digit, and a special character meaning anything that is neither a letter/digit nor a space.
 */

export type RequirementId = 'length' | 'uppercase' | 'lowercase' | 'number' | 'special';

export interface Requirement {
  id: RequirementId;
  label: string;
  test: (password: string) => boolean;
}

export const PASSWORD_REQUIREMENTS: readonly Requirement[] = [
  { id: 'length', label: 'At least 6 characters', test: (p) => [...p].length >= 6 },
  { id: 'uppercase', label: 'An uppercase letter', test: (p) => /\p{Lu}/u.test(p) },
  { id: 'lowercase', label: 'A lowercase letter', test: (p) => /\p{Ll}/u.test(p) },
  { id: 'number', label: 'A number', test: (p) => /[0-9]/.test(p) },
  { id: 'special', label: 'A special character', test: (p) => /[^\p{L}\p{N}\s]/u.test(p) },
];

export interface ChecklistItem {
  id: RequirementId;
  label: string;
  met: boolean;
}

export function passwordChecklist(password: string): ChecklistItem[] {
  return PASSWORD_REQUIREMENTS.map(({ id, label, test }) => ({ id, label, met: test(password) }));
}

export type PasswordStrength = 'invalid' | 'weak' | 'ok' | 'strong';

export const STRONG_LENGTH = 12;
export const DISTINCT_CHARACTERS = 6;

/**
 * 'invalid' while any requirement is missing; otherwise 'weak' when neither condition holds,
 * 'ok' with one of them (12+ characters, or 6+ distinct characters) and 'strong' with both.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (!PASSWORD_REQUIREMENTS.every(({ test }) => test(password))) return 'invalid';
  const chars = [...password];
  const long = chars.length >= STRONG_LENGTH;
  const varied = new Set(chars).size >= DISTINCT_CHARACTERS;
  if (long && varied) return 'strong';
  if (long || varied) return 'ok';
  return 'weak';
}

export const STRENGTH_LABELS: Record<Exclude<PasswordStrength, 'invalid'>, string> = {
  weak: 'Weak password',
  ok: 'Ok password',
  strong: 'Strong password',
};

/** Sign-up's minimum (spec §9); a reset or a change asks the same of the new password. */
export const NEW_PASSWORD_MIN = 8;

export const NEW_PASSWORD_MESSAGES = {
  required: 'Password is required',
  tooShort: 'Password must be at least 8 characters',
  mismatch: 'Passwords do not match',
} as const;

/** What is wrong with a new password before it is sent, as sign-up words it (spec §5). */
export function newPasswordError(password: string): string | undefined {
  if (password === '') return NEW_PASSWORD_MESSAGES.required;
  if ([...password].length < NEW_PASSWORD_MIN) return NEW_PASSWORD_MESSAGES.tooShort;
  return undefined;
}

/** The "Confirm password" field: it must repeat the new password exactly. */
export function confirmationError(password: string, confirmation: string): string | undefined {
  return confirmation === password ? undefined : NEW_PASSWORD_MESSAGES.mismatch;
}

/**
 * Whether a server's 400 detail is about the new password's rules ('Password must include…',
 * 'Password must be at least 8 characters', 'This password is too common…'): the same words
 * for sign-up, reset and change, shown under the new-password field.
 */
export function isPasswordRuleDetail(detail: string): boolean {
  return /password must|password is too common/i.test(detail);
}
