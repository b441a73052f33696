import { useInfiniteQuery } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { Alert } from '../../../components/alert';
import { MoreOf } from '../../../components/load-more-button';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { UserLink } from '../../../components/user-link';
import { useViewer } from '../../../lib/session';
import { peopleQueries, type PeopleSide } from '../people-api';
import styles from './people-dialog.module.css';

export const PEOPLE_WORDS = {
  title: { listeners: 'Listeners', 'listened-to': 'Listened to' },
  empty: { listeners: 'No listeners yet.', 'listened-to': 'Not listening to anyone yet.' },
  failed: 'This list could not be loaded. Check your connection and try again.',
  retry: 'Try again',
} as const;

interface PeopleDialogProps {
  userId: string;
  /** Whose name the title carries: "Listeners of Ana". */
  name: string;
  side: PeopleSide;
  onClose: () => void;
}

/**
 * A person's listeners, or the people they listen to, most recent first, in a dialog over
 * their profile; people of other servers under their handle (`@name@server`). Opening one
 * closes the dialog.
 */
export function PeopleDialog({ userId, name, side, onClose }: PeopleDialogProps) {
  const viewer = useViewer();
  const list = useInfiniteQuery(peopleQueries.list(userId, side, viewer?.id));
  const people = list.data?.pages.flatMap((page) => page.people) ?? [];
  const closeOnLink = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest('a')) onClose();
  };
  return (
    <Modal open title={PEOPLE_WORDS.title[side]} description={name} onClose={onClose}>
      {list.isPending ? (
        <div className={styles.state}>
          <Spinner label="Loading" />
        </div>
      ) : list.isError && people.length === 0 ? (
        <div className={styles.state}>
          <Alert tone="error">{PEOPLE_WORDS.failed}</Alert>
          <button type="button" className="btn btn-secondary" onClick={() => void list.refetch()}>
            {PEOPLE_WORDS.retry}
          </button>
        </div>
      ) : people.length === 0 ? (
        <p className={styles.empty}>{PEOPLE_WORDS.empty[side]}</p>
      ) : (
        // The click closes the dialog when it lands on a person's link.
        <ul className={styles.list} aria-label={`${PEOPLE_WORDS.title[side]} of ${name}`} onClick={closeOnLink}>
          {people.map((person) => (
            <li key={person.id}>
              <UserLink userId={person.id} name={person.name || person.login} login={person.login} avatarUrl={person.avatar_url} compact />
            </li>
          ))}
        </ul>
      )}
      <MoreOf query={list} className={styles.more} />
    </Modal>
  );
}
