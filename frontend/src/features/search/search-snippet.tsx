import { Fragment } from 'react';
import type { SearchMatchJson } from './music-api';
import styles from './search-snippet.module.css';

/** What each place a search finds words in is called. */
export const SNIPPET_FIELDS: Record<string, string> = {
  title: 'Title',
  artist: 'Artist',
  composer: 'Composer',
  lyrics: 'Lyrics',
  caption: 'Caption',
  sung: 'Sung',
};

/**
 * Why a search found a post (issue 34): each place it has the words (title, composer, the line
 * of its lyrics…), the words marked. Nothing when the server said nothing.
 */
export function SearchSnippet({ match }: { match: SearchMatchJson | undefined }) {
  if (!match || match.matches.length === 0) return null;
  return (
    <dl className={styles.snippet} data-search-snippet="">
      {match.matches.map((m, i) => (
        <div key={i} className={styles.match}>
          <dt>{SNIPPET_FIELDS[m.field] ?? m.field}</dt>
          <dd>
            {m.snippet.map((piece, j) =>
              piece.hit ? <mark key={j}>{piece.text}</mark> : <Fragment key={j}>{piece.text}</Fragment>,
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
