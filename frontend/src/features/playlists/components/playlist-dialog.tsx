import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/http';
import {
  PLAYLIST_LIMITS,
  useCreatePlaylist,
  useEditPlaylist,
  type PlaylistJson,
} from '../../../lib/playlists';
import styles from './playlist-dialog.module.css';

interface PlaylistDialogProps {
  /** The playlist to edit; none to make a new one. */
  playlist?: PlaylistJson;
  onClose: () => void;
  /** After a new playlist was made. */
  onCreated?: (playlist: PlaylistJson) => void;
}

/** Making a playlist, or changing one's title, description and whether everyone sees it. */
export function PlaylistDialog({ playlist, onClose, onCreated }: PlaylistDialogProps) {
  const [title, setTitle] = useState(playlist?.title ?? '');
  const [description, setDescription] = useState(playlist?.description ?? '');
  const [isPublic, setPublic] = useState(playlist?.public ?? true);
  const [error, setError] = useState<string | null>(null);
  const create = useCreatePlaylist();
  const edit = useEditPlaylist(playlist?.id ?? '');
  const busy = create.isPending || edit.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) {
      setError('A playlist needs a title');
      return;
    }
    const body = { title, description: description.trim() ? description : null, public: isPublic };
    const failed = (e: Error) => setError(e instanceof ApiError && e.serverMessage ? e.serverMessage : 'Could not save the playlist');
    if (playlist) {
      edit.mutate(body, { onSuccess: onClose, onError: failed });
    } else {
      create.mutate(body, { onSuccess: (made) => (onCreated ? onCreated(made) : onClose()), onError: failed });
    }
  }

  return (
    <Modal open title={playlist ? 'Edit playlist' : 'New playlist'} onClose={onClose}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          label="Title"
          value={title}
          maxLength={PLAYLIST_LIMITS.title}
          onChange={(e) => setTitle(e.target.value)}
          error={error ?? undefined}
          autoComplete="off"
        />
        <div className="field">
          <label className="field-label" htmlFor="playlist-description">
            Description (optional)
          </label>
          <textarea
            id="playlist-description"
            className="input"
            rows={3}
            maxLength={PLAYLIST_LIMITS.description}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <label className={styles.check}>
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
          Public: anyone can see it, and it shows on your profile
        </label>
        <div className="dialog-buttons">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving...' : playlist ? 'Save' : 'Create'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
