import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BanIcon, UserCheckIcon, UserPlusIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import {
  LISTEN_MESSAGES,
  LISTEN_STATES,
  isUnauthorized,
  profileQueries,
  useListenAction,
  useListening,
  type UserCardJson,
} from '../api';
import styles from './listen-button.module.css';

/** The button's words on a profile (spec §4 Listen): Listen, Unlisten, or Loading... */
export function listenButtonLabel(listening: boolean, loading: boolean): string {
  if (loading) return 'Loading...';
  return listening ? 'Unlisten' : 'Listen';
}

interface ListenButtonProps {
  user: UserCardJson;
  /** What went wrong, in spec §8's words, for the page to show (a 401 goes to sign in instead). */
  onError: (message: string) => void;
}

/**
 * Listen / Unlisten on another user's profile. A guest goes to /sign-in. A blocked pair cannot
 * listen (spec §6): when the viewer blocked this user the button says 'Blocked' from the start;
 * when the server refuses (403: either of them blocked the other) it says 'Unavailable' and the
 * page shows the spec's sentence.
 */
export function ListenButton({ user, onError }: ListenButtonProps) {
  const goToSignIn = useGoToSignIn();
  const viewer = useViewer();
  const listening = useListening();
  const blockStatus = useQuery(profileQueries.blockStatus(viewer?.id, user.id));
  const action = useListenAction(listening.guest);
  const [refused, setRefused] = useState(false);

  const iBlocked = Boolean(viewer) && blockStatus.data === true;
  const isListening = listening.ids?.has(user.id) ?? false;
  const loading = listening.pending || action.pending || (Boolean(viewer) && blockStatus.isPending);
  const label = listenButtonLabel(isListening, loading);

  if (!loading && (iBlocked || refused)) {
    return (
      <button type="button" className={`btn btn-secondary ${styles.button}`} disabled>
        <BanIcon size={18} />
        {iBlocked ? LISTEN_STATES.blocked : LISTEN_STATES.unavailable}
      </button>
    );
  }

  async function onClick() {
    if (loading) return;
    await action.toggleListening(
      { user, listen: !isListening },
      {
        onError: (error) => {
          console.error('Listen toggle failed', error);
          if (isUnauthorized(error)) {
            goToSignIn(SESSION_EXPIRED_MESSAGE);
          } else if (error instanceof ApiError && error.status === 403) {
            setRefused(true);
            onError(LISTEN_MESSAGES.blocked);
          } else {
            onError(LISTEN_MESSAGES.failed);
          }
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
