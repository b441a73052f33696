/**
 * The Edit profile form's unsaved input, kept in session storage while the dialog is open.
 * If the session ends under the form (the save answers 401, or the session check says nobody),
 * the guard sends the person to sign in; signing in brings them back to /profile, where the
 * dialog opens again with what they had typed. Saving, Cancel and logging out drop it.
 */
import { DRAFT_KEY_PREFIX } from '../../lib/session';
import type { ProfileFormValues } from './profile-validation';

const KEY = `${DRAFT_KEY_PREFIX}edit-profile`;

interface StoredDraft {
  viewerId: string;
  values: ProfileFormValues;
}

function isValues(value: unknown): value is ProfileFormValues {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.login === 'string' &&
    typeof v.biography === 'string' &&
    (v.tagId === null || typeof v.tagId === 'string')
  );
}

/** The draft `viewerId` left, or null (none, another account's, or unreadable). */
export function readProfileDraft(viewerId: string | undefined): ProfileFormValues | null {
  if (!viewerId) return null;
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<StoredDraft> | null;
    return stored?.viewerId === viewerId && isValues(stored.values) ? stored.values : null;
  } catch {
    return null;
  }
}

export function saveProfileDraft(viewerId: string | undefined, values: ProfileFormValues): void {
  if (!viewerId) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ viewerId, values } satisfies StoredDraft));
  } catch {
    // Without storage the form still works; only the draft is not kept.
  }
}

export function dropProfileDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to drop.
  }
}
