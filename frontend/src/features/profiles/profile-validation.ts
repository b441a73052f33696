/** The rules of the Edit profile form (spec §5 Profile edit, §9). The server checks them too. */
import { RESERVED_LOGIN_MESSAGE, isReservedLogin } from './reserved-logins';

export const NAME_MAX_LENGTH = 15;
export const LOGIN_MAX_LENGTH = 20;
export const BIOGRAPHY_MAX_LENGTH = 130;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

export const PROFILE_MESSAGES = {
  nameEmpty: 'Name cannot be empty',
  loginEmpty: 'Login cannot be empty',
  loginCharacters: 'Login can only contain letters, numbers, underscores and hyphens',
  loginReserved: RESERVED_LOGIN_MESSAGE,
  avatarType: 'Please select a PNG or JPEG image',
  avatarSize: 'Image must be smaller than 5MB',
} as const;

/** Counts characters as people (and the server) do, not UTF-16 units. */
export function charCount(text: string): number {
  return Array.from(text).length;
}

/** Cuts a text to at most `max` characters: the inputs truncate instead of refusing. */
export function truncate(text: string, max: number): string {
  return charCount(text) <= max ? text : Array.from(text).slice(0, max).join('');
}

/** A login as typed: @, spaces and dots removed, at most 20 characters. */
export function normalizeLogin(raw: string): string {
  return truncate(raw.replace(/[@.\s]/g, ''), LOGIN_MAX_LENGTH);
}

/** The name a profile header shows: at most 15 characters (spec §2 Own profile). */
export function shownName(name: string): string {
  return truncate(name, NAME_MAX_LENGTH);
}

export interface ProfileFormValues {
  name: string;
  login: string;
  biography: string;
  tagId: string | null;
}

export type ProfileFormErrors = Partial<Record<'name' | 'login', string>>;

/**
 * What the form would be refused for. `currentLogin` is the login the person has: sent back
 * unchanged it is kept even if a newer rule (a reserved word) would refuse it, as on the server.
 */
export function validateProfileForm(values: ProfileFormValues, currentLogin?: string): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (values.name.trim() === '') errors.name = PROFILE_MESSAGES.nameEmpty;
  if (values.login === '') errors.login = PROFILE_MESSAGES.loginEmpty;
  else if (!/^[A-Za-z0-9_-]+$/.test(values.login)) errors.login = PROFILE_MESSAGES.loginCharacters;
  else if (values.login.toLowerCase() !== currentLogin?.toLowerCase() && isReservedLogin(values.login)) {
    errors.login = PROFILE_MESSAGES.loginReserved;
  }
  return errors;
}

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg'];
const AVATAR_EXTENSIONS = /\.(png|jpe?g)$/i;

/** Why a chosen avatar cannot be used, or null when it can. */
export function avatarFileError(file: File): string | null {
  const typeOk = file.type ? AVATAR_TYPES.includes(file.type.toLowerCase()) : AVATAR_EXTENSIONS.test(file.name);
  if (!typeOk) return PROFILE_MESSAGES.avatarType;
  if (file.size >= AVATAR_MAX_BYTES) return PROFILE_MESSAGES.avatarSize;
  return null;
}

/** The tag after a click on one of the choices: clicking the selected one clears it. */
export function toggleTag(current: string | null, clicked: string): string | null {
  return current === clicked ? null : clicked;
}
