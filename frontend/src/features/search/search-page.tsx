import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { SearchIcon } from '../../components/nav-icons';
import { Spinner } from '../../components/spinner';
import { UserLink } from '../../components/user-link';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { usePageTitle } from '../../lib/use-page-title';
import { sessionQueries } from '../../lib/session';
import { ApiError } from '../../lib/http';
import { LISTEN_MESSAGES, LISTEN_STATES, useListenAction, useListening, type ListeningState } from '../profiles';
import { SEARCH_DEBOUNCE_MS, searchQueries, type SearchHitJson } from './api';
import styles from './search-page.module.css';

export const SEARCH_MESSAGES = {
  placeholder: 'Search',
  noResults: 'No results found.',
  discover: 'New on SelfSound',
  results: 'People',
  failed: 'Search failed. Please try again.',
} as const;

/**
 * User search (spec §2 Search): a debounced box (300 ms, trimmed, an empty query left out) and
 * the people found, each opening their profile and with Listen / Unlisten. With nothing typed
 * the page lists the newest people, which is what the server answers to an empty query.
 */
export function SearchPage() {
  usePageTitle('Search');
  const inputId = useId();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const me = useQuery(sessionQueries.me());
  const listening = useListening();

  // The query lives in the address too, so Back from a profile finds the same results. It is
  // written as the person types, not when the debounce settles: a write then could land just
  // after a click had navigated elsewhere (a guest's Listen → /sign-in) and undo it.
  const onType = (value: string) => {
    setText(value);
    const q = value.trim();
    if ((params.get('q') ?? '') !== q) setParams(q ? { q } : {}, { replace: true });
  };

  // Wait for the session check so the search is asked once, as the right person.
  const results = useQuery({
    ...searchQueries.profiles(query, me.data?.id ?? null),
    enabled: !me.isPending,
  });

  const typing = text.trim() !== query;
  const hits = results.data ?? [];
  const searching = typing || results.isFetching || results.isPending;

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">Search</h1>
      <form role="search" className={styles.searchBox} onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId} className="visually-hidden">
          Search people
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
        {searching && !results.isPending ? (
          <span className={styles.inputSpinner}>
            <Spinner size="sm" label="Searching" />
          </span>
        ) : null}
      </form>

      <section className={styles.results} aria-labelledby="search-results-title" aria-busy={searching}>
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
          <UserLink userId={hit.id} name={name} login={hit.login} avatarUrl={hit.avatar_url} />
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
      <UserLink userId={hit.id} name={name} login={hit.login} avatarUrl={hit.avatar_url} />
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
