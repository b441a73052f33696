import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Avatar } from '../../../components/avatar';
import { ImageIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { ApiError } from '../../../lib/http';
import { getToken } from '../../../lib/token-storage';
import { PROFILE_ERRORS, useUploadAvatar } from '../api';
import { avatarFileError } from '../profile-validation';
import styles from './avatar-picker.module.css';

type Problem = { title?: string; text: string };

function uploadProblem(error: unknown): Problem {
  if (error instanceof ApiError) {
    if (error.sessionExpired) return { title: PROFILE_ERRORS.avatarFailedTitle, text: error.message };
    return { title: PROFILE_ERRORS.avatarFailedTitle, text: error.serverMessage ?? PROFILE_ERRORS.avatarFailed };
  }
  return { title: PROFILE_ERRORS.avatarFailedTitle, text: PROFILE_ERRORS.avatarFailed };
}

interface AvatarPickerProps {
  viewerId: string | undefined;
  name: string;
  avatarUrl: string | null;
  /** Tells the form an upload is running (Save waits for it). */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * The avatar of the Edit profile form (spec §4 Avatar): a chosen file is checked, shown at once
 * and uploaded at once; when the upload fails the previous picture comes back.
 */
export function AvatarPicker({ viewerId, name, avatarUrl, onBusyChange }: AvatarPickerProps) {
  const inputId = useId();
  const upload = useUploadAvatar(viewerId);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  // Object URLs hold the file in memory until revoked.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  useEffect(() => onBusyChange?.(upload.isPending), [upload.isPending, onBusyChange]);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be picked again after a failure.
    event.target.value = '';
    if (!file) return;
    const invalid = avatarFileError(file);
    if (invalid) {
      setProblem({ text: invalid });
      return;
    }
    if (!getToken()) {
      setProblem({ text: PROFILE_ERRORS.authRequired });
      return;
    }
    setProblem(null);
    setPreview(URL.createObjectURL(file));
    upload.mutate(file, {
      onError: (error) => {
        console.error('Avatar upload failed', error);
        setPreview(null);
        setProblem(uploadProblem(error));
      },
    });
  }

  return (
    <div className={styles.picker}>
      <div className={styles.row}>
        <div className={styles.preview}>
          <Avatar src={preview ?? avatarUrl} name={name ? `${name}'s avatar` : 'Avatar'} size={76} />
          {upload.isPending ? (
            <span className={styles.busy}>
              <Spinner label="Uploading avatar" />
            </span>
          ) : null}
        </div>
        <div className={styles.text}>
          <input
            id={inputId}
            type="file"
            accept="image/png,image/jpeg"
            className={`visually-hidden ${styles.input}`}
            onChange={onChange}
            disabled={upload.isPending}
          />
          <label htmlFor={inputId} className={`btn btn-secondary ${styles.choose}`} aria-disabled={upload.isPending}>
            <ImageIcon size={18} />
            {upload.isPending ? 'Uploading...' : 'Change avatar'}
          </label>
          <p className="field-hint">PNG or JPEG, smaller than 5MB. It is saved at once.</p>
        </div>
      </div>
      {problem ? (
        <Alert tone="error" title={problem.title} onDismiss={() => setProblem(null)}>
          {problem.text}
        </Alert>
      ) : null}
    </div>
  );
}
