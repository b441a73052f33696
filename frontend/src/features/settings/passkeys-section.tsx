import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { KeyIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { useToast } from '../../components/toast';
import { formatRelativeTime } from '../../lib/format';
import { ApiError } from '../../lib/http';
import { useViewer } from '../../lib/session';
import { PasskeyCancelled, passkeysSupported } from '../../lib/passkey';
import {
  passkeyQueries,
  suggestedName,
  useAddPasskey,
  useRemovePasskey,
  useRenamePasskey,
  type PasskeyJson,
} from './passkeys-api';
import styles from './passkeys-section.module.css';

export const PASSKEY_MESSAGES = {
  intro:
    'Sign in with your fingerprint, face or screen lock instead of your password and two-factor code. ' +
    'A passkey lives on one device, or in your password manager.',
  none: 'No passkeys yet.',
  unsupported: 'This browser cannot make passkeys.',
  added: 'Passkey added',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
  cancelled: 'Adding the passkey was cancelled.',
  passwordRequired: 'Enter your password',
  nameRequired: 'Give the passkey a name',
  loadFailed: 'Could not load your passkeys. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  confirmRemove: (name: string) => `Remove the passkey “${name}”? You will no longer be able to sign in with it.`,
  meta: (added: string, used: string | null) => `Added ${added} · ${used ? `last used ${used}` : 'never used'}`,
} as const;

function detailOf(error: Error): string {
  if (error instanceof PasskeyCancelled) return PASSKEY_MESSAGES.cancelled;
  if (error instanceof ApiError) return error.serverMessage ?? `HTTP ${error.status}`;
  return PASSKEY_MESSAGES.network;
}

/** A refusal shown in the section (a 401 ended the session: the route guard takes over). */
function shownIn(setError: (text: string) => void) {
  return (e: Error) => {
    if (e instanceof ApiError && e.sessionExpired) return;
    setError(detailOf(e));
  };
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** Adding one: the password again and a name; then the browser asks for the fingerprint or PIN. */
function AddPasskeyForm({ onDone }: { onDone: () => void }) {
  const add = useAddPasskey();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [name, setName] = useState(() => suggestedName(navigator.userAgent));
  const [problem, setProblem] = useState<{ password?: string; name?: string; form?: string }>({});

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      password: password ? undefined : PASSKEY_MESSAGES.passwordRequired,
      name: name.trim() ? undefined : PASSKEY_MESSAGES.nameRequired,
    };
    setProblem(missing);
    if (missing.password || missing.name) return;
    add.mutate(
      { password, name: name.trim() },
      {
        onSuccess: () => {
          toast.show(PASSKEY_MESSAGES.added);
          onDone();
        },
        onError: shownIn((text) =>
          setProblem(text === 'Current password is incorrect' ? { password: text } : { form: text }),
        ),
      },
    );
  }

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Add a passkey">
      {problem.form ? <Alert tone="error">{problem.form}</Alert> : null}
      <TextField
        label="Your password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={problem.password}
        disabled={add.isPending}
        autoFocus
        renderInput={(props) => <PasswordInput {...props} />}
      />
      <TextField
        label="Name"
        hint="So you can tell your passkeys apart"
        value={name}
        maxLength={60}
        onChange={(e) => setName(e.target.value)}
        error={problem.name}
        disabled={add.isPending}
      />
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending ? <Spinner size="sm" label="" /> : null}
          {add.isPending ? 'Waiting for your device...' : 'Continue'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onDone} disabled={add.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One passkey: its name (renamed in place), when it was added and last used, and Remove. */
function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyJson; onRemove: () => void }) {
  const rename = useRenamePasskey();
  const toast = useToast();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const used = passkey.last_used_at ? formatRelativeTime(passkey.last_used_at, undefined, { days: 'words' }) : null;

  function onSave(event: FormEvent) {
    event.preventDefault();
    if (editing === null) return;
    if (!editing.trim()) return setError(PASSKEY_MESSAGES.nameRequired);
    rename.mutate(
      { id: passkey.id, name: editing.trim() },
      {
        onSuccess: () => {
          setEditing(null);
          setError(null);
          toast.show(PASSKEY_MESSAGES.renamed);
        },
        onError: shownIn(setError),
      },
    );
  }

  return (
    <li className={styles.item}>
      <span className={styles.icon} aria-hidden="true">
        <KeyIcon size={20} />
      </span>
      {editing === null ? (
        <>
          <div className={styles.details}>
            <p className={styles.name}>{passkey.name}</p>
            <p className={styles.meta}>{PASSKEY_MESSAGES.meta(day(passkey.created_at), used)}</p>
          </div>
          <div className={styles.rowActions}>
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => setEditing(passkey.name)}
              aria-label={`Rename ${passkey.name}`}
            >
              Rename
            </button>
            <button type="button" className="btn btn-danger-outline" onClick={onRemove} aria-label={`Remove ${passkey.name}`}>
              Remove
            </button>
          </div>
        </>
      ) : (
        <form className={styles.rename} onSubmit={onSave} noValidate aria-label={`Rename ${passkey.name}`}>
          <TextField
            label="Name"
            value={editing}
            maxLength={60}
            onChange={(e) => setEditing(e.target.value)}
            error={error ?? undefined}
            disabled={rename.isPending}
            autoFocus
          />
          <div className={styles.actions}>
            <button type="submit" className="btn btn-primary" disabled={rename.isPending}>
              Save
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                setEditing(null);
                setError(null);
              }}
              disabled={rename.isPending}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/**
 * Settings → Passkeys (issue 36): the account's passkeys, each renamed or removed in place, and
 * adding one (the password again, then the device's own check). Signing in with one skips the
 * password and the two-factor code.
 */
export function PasskeysSection() {
  const viewer = useViewer();
  const list = useQuery({ ...passkeyQueries.list(viewer?.id), enabled: viewer != null });
  const remove = useRemovePasskey();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyJson | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const supported = passkeysSupported();

  function onRemove() {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        setRemoving(null);
        toast.show(PASSKEY_MESSAGES.removed);
      },
      onError: (e) => {
        setRemoving(null);
        shownIn(setFailure)(e);
      },
    });
  }

  const count = list.data?.length;
  return (
    <section className={styles.section} aria-labelledby="passkeys-title">
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h2 id="passkeys-title">Passkeys</h2>
          {count ? <span className={styles.count}>{count}</span> : null}
        </div>
        <p>{PASSKEY_MESSAGES.intro}</p>
      </header>
      {failure ? (
        <Alert tone="error" className={styles.alert} onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      <div className={styles.body}>
        {list.isPending ? (
          <Spinner size="sm" label="Loading passkeys..." />
        ) : list.isError ? (
          <Alert tone="error">{PASSKEY_MESSAGES.loadFailed}</Alert>
        ) : list.data.length > 0 ? (
          <ul className={styles.list}>
            {list.data.map((p) => (
              <PasskeyRow key={p.id} passkey={p} onRemove={() => setRemoving(p)} />
            ))}
          </ul>
        ) : (
          <p className={styles.none}>{PASSKEY_MESSAGES.none}</p>
        )}
      </div>
      {adding ? (
        <AddPasskeyForm onDone={() => setAdding(false)} />
      ) : (
        <div className={styles.row}>
          {supported ? (
            <button type="button" className="btn btn-secondary" onClick={() => setAdding(true)}>
              <KeyIcon size={18} />
              Add a passkey
            </button>
          ) : (
            <p className={styles.none}>{PASSKEY_MESSAGES.unsupported}</p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove passkey"
        message={removing ? PASSKEY_MESSAGES.confirmRemove(removing.name) : ''}
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={onRemove}
      />
    </section>
  );
}
