import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/modal';
import { ADD_TAG_LABEL, ROLE_TAGS, RoleBadge } from '../../../components/role-badge';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/http';
import { getToken } from '../../../lib/token-storage';
import { PROFILE_ERRORS, useUpdateProfile, type Profile } from '../api';
import { dropProfileDraft, readProfileDraft, saveProfileDraft } from '../profile-draft';
import {
  BIOGRAPHY_MAX_LENGTH,
  LOGIN_MAX_LENGTH,
  NAME_MAX_LENGTH,
  charCount,
  normalizeLogin,
  toggleTag,
  truncate,
  validateProfileForm,
  type ProfileFormErrors,
  type ProfileFormValues,
} from '../profile-validation';
import { AvatarPicker } from './avatar-picker';
import styles from './edit-profile-modal.module.css';

/** Above a form that came back with what was typed before the session ended. */
export const RESTORED_DRAFT = 'Your unsaved changes are back. Save them when you are ready.';

interface EditProfileModalProps {
  open: boolean;
  profile: Profile;
  viewerId: string | undefined;
  onClose: () => void;
  /** After a save; `refetched` is false when the profile could not be fetched again. */
  onSaved: (refetched: boolean) => void;
}

/**
 * The 'Edit profile' dialog of the own profile (spec §2, §4 Profile edit, §5). What is typed is
 * kept as a draft until it is saved or the dialog is closed (profile-draft.ts).
 */
export function EditProfileModal({ open, profile, viewerId, onClose, onSaved }: EditProfileModalProps) {
  const close = () => {
    dropProfileDraft();
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title="Edit profile">
      <EditProfileForm profile={profile} viewerId={viewerId} onClose={close} onSaved={onSaved} />
    </Modal>
  );
}

/** Where a server refusal belongs (spec §8 Profile; the server's own words). */
function placeServerError(error: unknown): { field?: keyof ProfileFormErrors | 'biography'; text: string } {
  if (!(error instanceof ApiError)) return { text: PROFILE_ERRORS.updateFailed };
  if (error.sessionExpired) return { text: error.message };
  const text = error.serverMessage ?? PROFILE_ERRORS.updateFailed;
  if (error.status === 409) return { field: 'login', text };
  if (error.status === 400) {
    if (/^Name\b/.test(text)) return { field: 'name', text };
    // "Login must ...", and "This login is reserved. ..." (should the web app's list be behind).
    if (/\blogin\b/i.test(text)) return { field: 'login', text };
    if (/^Biography\b/.test(text)) return { field: 'biography', text };
  }
  return { text };
}

function EditProfileForm({ profile, viewerId, onClose, onSaved }: Omit<EditProfileModalProps, 'open'>) {
  const bioId = useId();
  const tagHeadingId = useId();
  const save = useUpdateProfile(viewerId);
  const [draft] = useState(() => readProfileDraft(viewerId));
  const [values, setValues] = useState<ProfileFormValues>(
    () =>
      draft ?? {
        name: truncate(profile.name, NAME_MAX_LENGTH),
        login: profile.login,
        biography: truncate(profile.biography, BIOGRAPHY_MAX_LENGTH),
        tagId: ROLE_TAGS.some((t) => t.id === profile.tagId) ? profile.tagId : null,
      },
  );
  const [edited, setEdited] = useState(draft !== null);
  useEffect(() => {
    if (edited) saveProfileDraft(viewerId, values);
  }, [edited, values, viewerId]);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<'name' | 'login' | 'biography', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [avatarBusy, setAvatarBusy] = useState(false);
  const onAvatarBusy = useCallback((busy: boolean) => setAvatarBusy(busy), []);

  const errors = validateProfileForm(values, profile.login);
  const fieldError = (field: 'name' | 'login') => serverErrors[field] ?? (submitted ? errors[field] : undefined);

  function set<K extends keyof ProfileFormValues>(field: K, value: ProfileFormValues[K]) {
    setEdited(true);
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (errors.name || errors.login || save.isPending) return;
    if (!getToken()) {
      setFormError(PROFILE_ERRORS.authRequired);
      return;
    }
    const biography = values.biography.trim();
    save.mutate(
      { name: values.name.trim(), login: values.login, description: biography === '' ? null : biography, tag_id: values.tagId },
      {
        onSuccess: ({ refetched }) => {
          onSaved(refetched);
          onClose();
        },
        onError: (error) => {
          const placed = placeServerError(error);
          if (placed.field) setServerErrors({ [placed.field]: placed.text });
          else setFormError(placed.text);
        },
      },
    );
  }

  const busy = save.isPending;

  return (
    <form noValidate onSubmit={onSubmit} className={`form-stack ${styles.form}`} aria-label="Edit profile">
      <AvatarPicker viewerId={viewerId} name={profile.name} avatarUrl={profile.avatarUrl} onBusyChange={onAvatarBusy} />

      {draft ? (
        <Alert tone="info">{RESTORED_DRAFT}</Alert>
      ) : null}
      {formError ? <Alert tone="error">{formError}</Alert> : null}

      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        value={values.name}
        onChange={(e) => set('name', truncate(e.target.value, NAME_MAX_LENGTH))}
        error={fieldError('name')}
        disabled={busy}
        aside={
          <span className="field-hint" aria-hidden="true">
            {charCount(values.name)}/{NAME_MAX_LENGTH}
          </span>
        }
      />
      <TextField
        label="Login"
        name="login"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={values.login}
        onChange={(e) => set('login', normalizeLogin(e.target.value))}
        error={fieldError('login')}
        disabled={busy}
        hint="Letters, numbers, underscores and hyphens."
        aside={
          <span className="field-hint" aria-hidden="true">
            {charCount(values.login)}/{LOGIN_MAX_LENGTH}
          </span>
        }
      />
      <div className="field">
        <div className="field-row">
          <label className="field-label" htmlFor={bioId}>
            Biography
          </label>
          <span className="field-hint" aria-hidden="true">
            {charCount(values.biography)}/{BIOGRAPHY_MAX_LENGTH}
          </span>
        </div>
        <textarea
          id={bioId}
          name="biography"
          className={`input ${styles.textarea}`}
          rows={3}
          value={values.biography}
          placeholder="Tell people about your music"
          onChange={(e) => set('biography', truncate(e.target.value, BIOGRAPHY_MAX_LENGTH))}
          disabled={busy}
          aria-invalid={serverErrors.biography ? true : undefined}
          aria-describedby={serverErrors.biography ? `${bioId}-error` : undefined}
        />
        {serverErrors.biography ? (
          <p id={`${bioId}-error`} className="field-error">
            {serverErrors.biography}
          </p>
        ) : null}
      </div>

      <div className="field" role="group" aria-labelledby={tagHeadingId}>
        <div className="field-row">
          <span id={tagHeadingId} className="field-label">
            Tag
          </span>
          <span className={styles.current} data-testid="tag-preview">
            <RoleBadge tagId={values.tagId} />
          </span>
        </div>
        <div className={styles.tags}>
          {ROLE_TAGS.map((tag) => {
            const selected = values.tagId === tag.id;
            return (
              <button
                key={tag.id}
                type="button"
                className={`${styles.tag} ${styles[tag.name.toLowerCase()]}`}
                aria-pressed={selected}
                onClick={() => set('tagId', toggleTag(values.tagId, tag.id))}
                disabled={busy}
              >
                {tag.name}
              </button>
            );
          })}
        </div>
        <p className="field-hint">
          {values.tagId ? 'Click the selected tag again to remove it.' : `No tag: your profile shows '${ADD_TAG_LABEL}'.`}
        </p>
      </div>

      <div className={styles.buttons}>
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || avatarBusy}>
          {busy ? <Spinner size="sm" label="" /> : null}
          {busy ? 'Saving...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
