import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { Tabs } from '../../components/tabs';
import { SESSION_EXPIRED_MESSAGE, onSessionExpired } from '../../lib/http';
import { useGoToSignIn } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { useAddressParams } from '../../lib/use-address-params';
import { FeedList, POST_MESSAGES, postQueries, useViewerId } from '../posts';
import styles from './home-page.module.css';

export type FeedTab = 'for-you' | 'listened-to';

/** The address's `?feed=` names the tab, so a reload or a shared link opens the same one. */
const FEED_PARAM = 'feed';

function tabOf(params: URLSearchParams): FeedTab {
  return params.get(FEED_PARAM) === 'listened-to' ? 'listened-to' : 'for-you';
}

const TABS: ReadonlyArray<{ id: FeedTab; label: string }> = [
  { id: 'for-you', label: 'For you' },
  { id: 'listened-to', label: 'Listened to' },
];

export const HOME_WORDS = {
  listenedTitle: 'Listened To Feed',
  listenedNote: "Posts from users you're listening to",
  inviteTitle: 'Your Listened to feed',
  inviteText: 'Sign in to see the latest posts from the people you listen to.',
  signIn: 'Sign in',
  signUp: 'Sign up',
} as const;

/**
 * Home (spec §2): the 'For you' feed (public) and the 'Listened to' feed (signed in). A tab's feed
 * is fetched when the tab is first opened and kept while moving between them. The open tab is in
 * the address (`/home?feed=listened-to`; For you has none), replaced rather than pushed: moving
 * between tabs adds no history entries for Back to walk through.
 */
export function HomePage() {
  usePageTitle('Home');
  const [params, setParam] = useAddressParams();
  const tab = tabOf(params);
  const [opened, setOpened] = useState<ReadonlySet<FeedTab>>(() => new Set([tab]));
  const baseId = useId();
  // Whichever way a tab opens (a click changes the address, as do Back and links), its feed is
  // fetched from then on.
  if (!opened.has(tab)) setOpened(new Set([...opened, tab]));

  const select = (next: FeedTab) => setParam({ [FEED_PARAM]: next === 'for-you' ? '' : next });

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">Home</h1>
      <div className={styles.tabsBar} data-feed-tabs>
        <Tabs
          tabs={TABS}
          selected={tab}
          onSelect={select}
          label="Feeds"
          tabId={(id) => `${baseId}-tab-${id}`}
          panelId={(id) => `${baseId}-panel-${id}`}
        />
      </div>

      {TABS.map((t) => (
        <section
          key={t.id}
          role="tabpanel"
          id={`${baseId}-panel-${t.id}`}
          aria-labelledby={`${baseId}-tab-${t.id}`}
          hidden={tab !== t.id}
          className={styles.panel}
          data-feed={t.id}
        >
          {t.id === 'listened-to' ? (
            <header className={styles.feedHeader}>
              <h2>{HOME_WORDS.listenedTitle}</h2>
              <p>{HOME_WORDS.listenedNote}</p>
            </header>
          ) : (
            // The posts' titles are h3: the feed is the level between them and the page's h1.
            <h2 className="visually-hidden">{t.label}</h2>
          )}
          {opened.has(t.id) ? t.id === 'for-you' ? <ForYouFeed /> : <ListenedFeed /> : null}
        </section>
      ))}
    </div>
  );
}

function ForYouFeed() {
  const query = useInfiniteQuery(postQueries.feed('for-you', useViewerId()));
  return <FeedList query={query} label="For you" errorFallback={POST_MESSAGES.feedFailed} />;
}

/**
 * The posts of the people the viewer listens to. A guest is invited to sign in instead of being
 * refused by the server; when the session ended under the page (spec §8: a 401 on this feed), it
 * says so.
 */
function ListenedFeed() {
  const viewerId = useViewerId();
  const query = useInfiniteQuery(postQueries.feed('listened-to', viewerId));
  const [expired, setExpired] = useState(false);
  useEffect(() => onSessionExpired(() => setExpired(true)), []);

  if (viewerId === null) return <SignInInvite expired={expired} />;
  return (
    <FeedList
      query={query}
      label="Listened to"
      emptyText={POST_MESSAGES.listenedEmptyText}
      errorFallback={POST_MESSAGES.feedFailed}
    />
  );
}

function SignInInvite({ expired }: { expired: boolean }) {
  const goToSignIn = useGoToSignIn();
  return (
    <div className={styles.invite}>
      {expired ? (
        <Alert tone="warning" className={styles.expired}>
          {SESSION_EXPIRED_MESSAGE}
        </Alert>
      ) : (
        <>
          <p className={styles.inviteTitle}>{HOME_WORDS.inviteTitle}</p>
          <p className={styles.inviteText}>{HOME_WORDS.inviteText}</p>
        </>
      )}
      <div className={styles.inviteActions}>
        <button type="button" className="btn btn-primary" onClick={() => goToSignIn()}>
          {HOME_WORDS.signIn}
        </button>
        {expired ? null : (
          <Link to="/sign-up" className="btn btn-secondary">
            {HOME_WORDS.signUp}
          </Link>
        )}
      </div>
    </div>
  );
}
