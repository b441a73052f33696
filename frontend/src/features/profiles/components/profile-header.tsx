import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Avatar } from '../../../components/avatar';
import type { Stats } from '../api';
import type { PeopleSide } from '../people-api';
import styles from './profile-header.module.css';

interface ProfileHeaderProps {
  /** The name as shown (already cut to 15 characters, or 'Unknown User'). */
  name: string;
  login: string;
  avatarUrl: string | null;
  /** The role badge, or the 'Add tag' placeholder. */
  badge: ReactNode;
  /** The biography paragraph (own: the text; other: the text or 'No biography available'). */
  biography: ReactNode;
  stats: Stats;
  /** Buttons beside the avatar (Edit profile; Listen and the menu). */
  actions?: ReactNode;
  /** Whose profile: with it, the Listeners and Listened to counts open their lists. */
  userId?: string;
}

const PeopleDialog = lazy(async () => ({ default: (await import('./people-dialog')).PeopleDialog }));

/** The counts that open a list of people, and which. */
const LISTS: Partial<Record<keyof Stats, PeopleSide>> = { listeners: 'listeners', listenedTo: 'listened-to' };

export const STAT_LABELS = { posts: 'Posts', listeners: 'Listeners', listenedTo: 'Listened to' } as const;

/** The top of a profile: cover, avatar, name, @login, tag, biography and counts (spec §2). */
export function ProfileHeader({ name, login, avatarUrl, badge, biography, stats, actions, userId }: ProfileHeaderProps) {
  const [shown, setShown] = useState<PeopleSide | null>(null);
  return (
    <section className={styles.card} aria-labelledby="profile-name">
      <div className={styles.cover} aria-hidden="true" />
      <div className={styles.body}>
        <div className={styles.avatarWrap}>
          <Avatar src={avatarUrl} name={name} size={112} className={styles.avatar} />
        </div>
        {actions ? <div className={styles.actions}>{actions}</div> : null}
        <div className={styles.identity}>
          <h1 id="profile-name" className={styles.name}>
            {name}
          </h1>
          <div className={styles.meta}>
            {login ? <span className={styles.login}>@{login}</span> : null}
            {badge}
          </div>
        </div>
        <div className={styles.biography}>{biography}</div>
        <dl className={styles.stats} aria-label="Stats">
          {(Object.keys(STAT_LABELS) as Array<keyof Stats>).map((key) => {
            const count = stats[key].toLocaleString('en-US');
            const list = userId ? LISTS[key] : undefined;
            return (
              <div key={key} className={styles.stat} data-stat={key}>
                <dt>{STAT_LABELS[key]}</dt>
                <dd>
                  {list ? (
                    // The button covers the whole count, label included (profile-header.module.css).
                    <button
                      type="button"
                      className={styles.statButton}
                      aria-haspopup="dialog"
                      aria-label={`${STAT_LABELS[key]}: ${count}, show who`}
                      onClick={() => setShown(list)}
                    >
                      {count}
                    </button>
                  ) : (
                    count
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </div>
      {shown && userId ? (
        <Suspense fallback={null}>
          <PeopleDialog userId={userId} name={name} side={shown} onClose={() => setShown(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
