import { useNavigate } from 'react-router';
import { UserCheckIcon, UserPlusIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { ApiError } from '../../../lib/http';
import { LISTEN_MESSAGES, isUnauthorized, useListenAction, useListening, type UserCardJson } from '../api';
import styles from './listen-button.module.css';

/** The button's words on a profile (spec §4 Listen): Listen, Unlisten, or Loading... */
export function listenButtonLabel(listening: boolean, loading: boolean): string {
  if (loading) return 'Loading...';
  return listening ? 'Unlisten' : 'Listen';
}

interface ListenButtonProps {
  user: UserCardJson;
  /** A failure other than 401 and 403 (those redirect and alert). */
  onError: (message: string) => void;
}

/**
 * Listen / Unlisten on another user's profile. A guest goes to /sign-in; a 403 (a block between
 * the two) alerts the spec's words; other failures are reported to the page.
 */
export function ListenButton({ user, onError }: ListenButtonProps) {
  const navigate = useNavigate();
  const listening = useListening();
  const action = useListenAction(listening.guest);

  const isListening = listening.ids?.has(user.id) ?? false;
  const loading = listening.pending || action.pending;
  const label = listenButtonLabel(isListening, loading);

  async function onClick() {
    if (loading) return;
    await action.toggleListening(
      { user, listen: !isListening },
      {
        onError: (error) => {
          console.error('Listen toggle failed', error);
          if (isUnauthorized(error)) void navigate('/sign-in');
          else if (error instanceof ApiError && error.status === 403) window.alert(LISTEN_MESSAGES.blocked);
          else onError(LISTEN_MESSAGES.failed);
        },
      },
    );
  }

  return (
    <button
      type="button"
      className={`btn ${isListening && !loading ? 'btn-secondary' : 'btn-primary'} ${styles.button}`}
      onClick={() => void onClick()}
      aria-busy={loading || undefined}
      aria-disabled={loading || undefined}
    >
      {loading ? <Spinner size="sm" label="" /> : isListening ? <UserCheckIcon size={18} /> : <UserPlusIcon size={18} />}
      {label}
    </button>
  );
}
