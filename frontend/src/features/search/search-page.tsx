import { useId, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { SearchIcon } from '../../components/first-load-icons';
import { Tabs } from '../../components/tabs';
import { Spinner } from '../../components/spinner';
import { UserLink } from '../../components/user-link';
import { useAddressParams } from '../../lib/use-address-params';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { usePageTitle } from '../../lib/use-page-title';
import { sessionQueries } from '../../lib/session';
import { ApiError } from '../../lib/http';
import { FeedList, useViewerId } from '../posts';
import { LISTEN_MESSAGES, LISTEN_STATES, useListenAction, useListening, type ListeningState } from '../profiles';
import { SEARCH_DEBOUNCE_MS, searchQueries, type SearchHitJson } from './api';
import { musicQueries, searchErrorMessage, someWordsOnly, type SearchKind } from './music-api';
import { SearchSnippet } from './search-snippet';
import styles from './search-page.module.css';
import snippetStyles from './search-snippet.module.css';

export const SEARCH_MESSAGES = {
  placeholder: 'Search',
  noResults: 'No results found.',
  discover: 'New on SelfSound',
  results: 'People',
  failed: 'Search failed. Please try again.',
  people: 'People',
  music: 'Music',
  findMusic: 'Find music',
  findMusicText: 'Search titles, artists, composers and lyrics.',
  noMusic: 'Try other words, or another kind of post.',
  someWords: 'No post has all of these words; showing posts with some of them',
  kinds: 'Kind of post',
} as const;

export type SearchTab = 'people' | 'music';

const TABS: ReadonlyArray<{ id: SearchTab; label: string }> = [
  { id: 'people', label: SEARCH_MESSAGES.people },
  { id: 'music', label: SEARCH_MESSAGES.music },
];

/** The kinds a music search may be narrowed to, as the wire names them. */
export const MUSIC_KINDS: ReadonlyArray<{ id: SearchKind; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'audio', label: 'Audio' },
  { id: 'musicxml', label: 'Scores' },
  { id: 'lyrics', label: 'Lyrics' },
  { id: 'media', label: 'Media' },
];

/** Whether `text` has a word to search for (letters or digits): the server finds nothing else. */
export function hasSearchWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

function tabOf(params: URLSearchParams): SearchTab {
  return params.get('tab') === 'music' ? 'music' : 'people';
}

function kindOf(params: URLSearchParams): SearchKind {
  return MUSIC_KINDS.find((k) => k.id === params.get('type'))?.id ?? 'all';
}

/**
 * Search (spec §2 Search): one debounced box (300 ms, trimmed, an empty query left out) over two
 * tabs. People (the spec's, and the default): the people found, each opening their profile and
 * with Listen / Unlisten; with nothing typed, the newest people, which is what the server
 * answers to an empty query. Music (issue 20): posts whose titles, artists, composers, lyrics,
 * captions or sung words match, best first, as cards with the player, narrowed to one kind if
 * asked; above each card where it has the words, marked (issue 34), and when no post has all of
 * them, the posts with some of them, said as such. The
 * words, the tab and the kind live in the address, so Back and a reload find the same results.
 */
export function SearchPage() {
  usePageTitle('Search');
  const inputId = useId();
  const baseId = useId();
  const [params, setParam] = useAddressParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const tab = tabOf(params);
  const kind = kindOf(params);
  const me = useQuery(sessionQueries.me());
  const viewerId = useViewerId();
  const listening = useListening();

  // Written as the person types, not when the debounce settles: a write then could land just
  // after a click had navigated elsewhere (a guest's Listen → /sign-in) and undo it.
  const onType = (value: string) => {
    setText(value);
    const q = value.trim();
    if ((params.get('q') ?? '') !== q) setParam({ q });
  };

  // Wait for the session check so the search is asked once, as the right person; each tab asks
  // only while it is open.
  const results = useQuery({
    ...searchQueries.profiles(query, me.data?.id ?? null),
    enabled: !me.isPending && tab === 'people',
  });
  const musicQuery = musicQueries.search(query, kind, viewerId);
  const music = useInfiniteQuery({ ...musicQuery, enabled: tab === 'music' && musicQuery.enabled !== false });
  const hasWords = hasSearchWords(query);

  const typing = text.trim() !== query;
  const hits = results.data ?? [];
  const searching =
    typing || (tab === 'people' ? results.isFetching || results.isPending : query !== '' && music.isFetching);

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">Search</h1>
      <form role="search" className={styles.searchBox} onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId} className="visually-hidden">
          {tab === 'music' ? 'Search music' : 'Search people'}
        </label>
        <span className={styles.searchIcon} aria-hidden="true">
          <SearchIcon size={20} />
        </span>
        <input
          id={inputId}
          type="search"
          className={`input ${styles.input}`}
          placeholder={SEARCH_MESSAGES.placeholder}
          value={text}
          onChange={(e) => onType(e.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          enterKeyHint="search"
        />
        {searching && !(tab === 'people' && results.isPending) ? (
          <span className={styles.inputSpinner}>
            <Spinner size="sm" label="Searching" />
          </span>
        ) : null}
      </form>

      <div className={styles.tabs}>
        <Tabs
          tabs={TABS}
          selected={tab}
          onSelect={(next) => setParam({ tab: next === 'people' ? '' : next })}
          label="Search for"
          tabId={(id) => `${baseId}-tab-${id}`}
          panelId={(id) => `${baseId}-panel-${id}`}
        />
      </div>

      {tab === 'music' ? (
        <section
          role="tabpanel"
          id={`${baseId}-panel-music`}
          aria-labelledby={`${baseId}-tab-music`}
          className={styles.results}
          aria-busy={searching}
        >
          <fieldset className={styles.kinds}>
            <legend className="visually-hidden">{SEARCH_MESSAGES.kinds}</legend>
            {MUSIC_KINDS.map((k) => (
              <label key={k.id} className={styles.kind}>
                <input
                  type="radio"
                  name={`${baseId}-kind`}
                  value={k.id}
                  checked={kind === k.id}
                  onChange={() => setParam({ type: k.id === 'all' ? '' : k.id })}
                />
                <span>{k.label}</span>
              </label>
            ))}
          </fieldset>
          {hasWords ? (
            <FeedList
              query={music}
              label={SEARCH_MESSAGES.music}
              emptyTitle={SEARCH_MESSAGES.noResults}
              emptyText={SEARCH_MESSAGES.noMusic}
              errorFallback={SEARCH_MESSAGES.failed}
              describeError={searchErrorMessage}
              header={
                <>
                  <h2 className="visually-hidden">{SEARCH_MESSAGES.music}</h2>
                  {someWordsOnly(music.data) ? (
                    <p className={snippetStyles.fallback} role="status">
                      {SEARCH_MESSAGES.someWords}
                    </p>
                  ) : null}
                </>
              }
              above={(post) => <SearchSnippet match={music.data?.pages.find((p) => p.found[post.id])?.found[post.id]} />}
            />
          ) : query ? (
            <p className={styles.empty}>{SEARCH_MESSAGES.noResults}</p>
          ) : (
            <div className={styles.hint}>
              <h2>{SEARCH_MESSAGES.findMusic}</h2>
              <p>{SEARCH_MESSAGES.findMusicText}</p>
            </div>
          )}
        </section>
      ) : (
      <section
        role="tabpanel"
        id={`${baseId}-panel-people`}
        aria-labelledby={`${baseId}-tab-people`}
        className={styles.results}
        aria-busy={searching}
      >
        <h2 id="search-results-title" className={styles.caption}>
          {query ? SEARCH_MESSAGES.results : SEARCH_MESSAGES.discover}
        </h2>
        {results.isPending ? (
          <div className={styles.center}>
            <Spinner label="Searching" size="lg" />
          </div>
        ) : results.isError && !results.data ? (
          <Alert tone="error">
            <p>{SEARCH_MESSAGES.failed}</p>
            <button type="button" className={`btn btn-secondary ${styles.retry}`} onClick={() => void results.refetch()}>
              Try Again
            </button>
          </Alert>
        ) : hits.length === 0 ? (
          query && !searching ? (
            <p className={styles.empty}>{SEARCH_MESSAGES.noResults}</p>
          ) : !query && !searching ? (
            <p className={styles.empty}>Nobody else is here yet.</p>
          ) : null
        ) : (
          <ul className={styles.list}>
            {hits.map((hit) => (
              <li key={hit.id}>
                <SearchResultRow hit={hit} listening={listening} />
              </li>
            ))}
          </ul>
        )}
      </section>
      )}
    </div>
  );
}

interface RowProps {
  hit: SearchHitJson;
  listening: ListeningState;
}

/**
 * One person: avatar, name and @login open the profile; the button listens or unlistens. When
 * the server refuses (403: one of the two blocked the other, spec §6) the button says
 * 'Unavailable' and the row says why; any other failure is only logged (spec §8).
 */
export function SearchResultRow({ hit, listening }: RowProps) {
  const action = useListenAction(listening.guest);
  const [refused, setRefused] = useState(false);
  // The listened list is the truth once known; until then the server's `active` flag.
  const isListening = listening.ids ? listening.ids.has(String(hit.id)) : hit.active;
  const busy = action.pending;

  async function onToggle() {
    if (busy) return;
    const user = { id: String(hit.id), name: hit.name, login: hit.login, avatar_url: hit.avatar_url, tag_id: hit.tag_id };
    await action.toggleListening(
      { user, listen: !isListening },
      {
        onError: (error) => {
          console.error('Failed to update listening status', error);
          if (error instanceof ApiError && error.status === 403) setRefused(true);
        },
      },
    );
  }

  const name = hit.name || hit.login;
  const noteId = `listen-refused-${hit.id}`;
  if (refused) {
    return (
      <div>
        <div className={styles.row}>
          <UserLink userId={hit.id} name={name} login={hit.login} avatarUrl={hit.avatar_url} wrapName />
          <button
            type="button"
            className={`btn btn-secondary ${styles.listen}`}
            disabled
            aria-describedby={noteId}
            aria-label={`${LISTEN_STATES.unavailable}: ${name}`}
          >
            {LISTEN_STATES.unavailable}
          </button>
        </div>
        <p id={noteId} className={styles.note} role="status">
          {LISTEN_MESSAGES.blocked}
        </p>
      </div>
    );
  }
  return (
    <div className={styles.row}>
      <UserLink userId={hit.id} name={name} login={hit.login} avatarUrl={hit.avatar_url} wrapName />
      <button
        type="button"
        className={`btn ${isListening ? 'btn-secondary' : 'btn-primary'} ${styles.listen}`}
        onClick={() => void onToggle()}
        disabled={busy}
        aria-label={`${isListening ? 'Unlisten' : 'Listen'} ${name}`}
      >
        {busy ? <Spinner size="sm" label="" /> : null}
        {isListening ? 'Unlisten' : 'Listen'}
      </button>
    </div>
  );
}
