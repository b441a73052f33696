import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { usePageTitle } from '../../lib/use-page-title';
import styles from './home-page.module.css';

export type FeedTab = 'for-you' | 'listened-to';

const TABS: ReadonlyArray<{ id: FeedTab; label: string }> = [
  { id: 'for-you', label: 'For you' },
  { id: 'listened-to', label: 'Listened to' },
];

/**
 * Home (spec §2): the 'For you' and 'Listened to' tabs. The feed lists fill the tab panels in a
 * later issue.
 */
export function HomePage() {
  usePageTitle('Home');
  const [tab, setTab] = useState<FeedTab>('for-you');
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const index = TABS.findIndex((t) => t.id === tab);
    const next = (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    const target = TABS[next];
    if (target) {
      setTab(target.id);
      tabRefs.current[next]?.focus();
    }
  }

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">Home</h1>
      <div role="tablist" aria-label="Feeds" className={styles.tabs} onKeyDown={onKeyDown}>
        {TABS.map((t, index) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
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
              <h2>Listened To Feed</h2>
              <p>Posts from users you&apos;re listening to</p>
            </header>
          ) : null}
        </section>
      ))}
    </div>
  );
}
