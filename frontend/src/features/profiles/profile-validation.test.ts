// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  AVATAR_MAX_BYTES,
  PROFILE_MESSAGES,
  avatarFileError,
  charCount,
  normalizeLogin,
  shownName,
  toggleTag,
  truncate,
  validateProfileForm,
} from './profile-validation';

function file(name: string, type: string, size = 10): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('normalizeLogin', () => {
  it('strips @, spaces and dots and keeps 20 characters', () => {
    expect(normalizeLogin('@ada.love lace')).toBe('adalovelace');
    expect(normalizeLogin('a'.repeat(25))).toBe('a'.repeat(20));
    expect(normalizeLogin(' @.@ ')).toBe('');
  });
});

describe('truncate and shownName', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(charCount('🎵🎵')).toBe(2);
    expect(truncate('🎵'.repeat(20), 15)).toBe('🎵'.repeat(15));
    expect(truncate('short', 15)).toBe('short');
  });

  it('shows at most 15 characters of a name', () => {
    expect(shownName('Wolfgang Amadeus Mozart')).toBe('Wolfgang Amadeu');
    expect(shownName('Ada')).toBe('Ada');
  });
});

describe('validateProfileForm', () => {
  const ok = { name: 'Ada', login: 'ada_l-1', biography: '', tagId: null };

  it('accepts a good form', () => {
    expect(validateProfileForm(ok)).toEqual({});
  });

  it('needs a name and a login', () => {
    expect(validateProfileForm({ ...ok, name: '  ', login: '' })).toEqual({
      name: 'Name cannot be empty',
      login: 'Login cannot be empty',
    });
  });

  it('allows only letters, numbers, underscores and hyphens in a login', () => {
    expect(validateProfileForm({ ...ok, login: 'ada/l' }).login).toBe(
      'Login can only contain letters, numbers, underscores and hyphens',
    );
    expect(validateProfileForm({ ...ok, login: 'adà' }).login).toBeDefined();
  });

  it("refuses a reserved login with the server's words, but keeps the login the person already has", () => {
    expect(validateProfileForm({ ...ok, login: 'Ad_Min' }).login).toBe(
      'This login is reserved. Please choose another one.',
    );
    expect(validateProfileForm({ ...ok, login: 'selfsound_fan' }, 'ada').login).toBe(PROFILE_MESSAGES.loginReserved);
    expect(validateProfileForm({ ...ok, login: 'admin' }, 'admin')).toEqual({});
    expect(validateProfileForm({ ...ok, login: 'Admin' }, 'admin')).toEqual({});
    expect(validateProfileForm({ ...ok, login: 'root' }, 'admin').login).toBe(PROFILE_MESSAGES.loginReserved);
  });
});

describe('avatarFileError', () => {
  it('accepts PNG and JPEG under 5MB', () => {
    expect(avatarFileError(file('a.png', 'image/png'))).toBeNull();
    expect(avatarFileError(file('a.jpg', 'image/jpeg'))).toBeNull();
    expect(avatarFileError(file('a.JPEG', ''))).toBeNull();
    expect(avatarFileError(file('a.png', 'image/png', AVATAR_MAX_BYTES - 1))).toBeNull();
  });

  it('refuses other types', () => {
    expect(avatarFileError(file('a.gif', 'image/gif'))).toBe('Please select a PNG or JPEG image');
    expect(avatarFileError(file('a.webp', ''))).toBe('Please select a PNG or JPEG image');
  });

  it('refuses 5MB and more', () => {
    expect(avatarFileError(file('a.png', 'image/png', AVATAR_MAX_BYTES))).toBe('Image must be smaller than 5MB');
  });
});

describe('toggleTag', () => {
  it('selects a tag, and clicking the selected one clears it', () => {
    expect(toggleTag(null, 'm')).toBe('m');
    expect(toggleTag('l', 'm')).toBe('m');
    expect(toggleTag('m', 'm')).toBeNull();
  });
});
