import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';
import styles from './status-page.module.css';

/** Which tab of Search a status page's search box opens. */
export type StatusSearch = 'people' | 'music';

/**
 * A page that says why there is nothing to show here (not found, no access), with a way home:
 * a large code above the heading, a sentence, what was looked for (`lookedFor`, an address), and
 * 'Go to home' (or what `actions` gives). With `search`, a search box that opens Search on that
 * tab with the words typed.
 */
export function StatusPage({
  code,
  title,
  text,
  lookedFor,
  search,
  actions,
}: {
  code: string;
  title: string;
  text: string;
  lookedFor?: string;
  search?: StatusSearch;
  actions?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className={styles.page} aria-labelledby="status-page-title">
      <p className={styles.code} aria-hidden="true">
        {code}
      </p>
      <h1 id="status-page-title">{title}</h1>
      <p className={styles.text}>{text}</p>
      {lookedFor ? (
        <p className={styles.lookedFor}>
          You looked for <span className={styles.address}>{lookedFor}</span>
        </p>
      ) : null}
      {search ? <StatusSearchBox tab={search} /> : null}
      <div className={styles.actions}>
        {actions}
        <Link to="/home" className="btn btn-primary">
          Go to home
        </Link>
      </div>
    </section>
  );
}

function StatusSearchBox({ tab }: { tab: StatusSearch }) {
  const id = useId();
  const navigate = useNavigate();
  const [words, setWords] = useState('');
  const label = tab === 'people' ? 'Search for people' : 'Search for music';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = words.trim();
    void navigate(`/search?tab=${tab}${q ? `&q=${encodeURIComponent(q)}` : ''}`);
  };
  return (
    <form role="search" className={styles.search} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input"
        placeholder={label}
        value={words}
        onChange={(e) => setWords(e.target.value)}
        maxLength={200}
      />
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </form>
  );
}
