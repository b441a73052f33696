import { useRef, type KeyboardEvent } from 'react';
import styles from './tabs.module.css';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

interface TabsProps<T extends string> {
  tabs: ReadonlyArray<TabItem<T>>;
  selected: T;
  onSelect: (id: T) => void;
  /** Names the tab list ('Feeds'). */
  label: string;
  /** The ids of tab `id` and of its panel (`tabId`, `panelId`), for `aria-controls`/`aria-labelledby`. */
  tabId: (id: T) => string;
  panelId: (id: T) => string;
}

/**
 * A row of tabs as a pill (Home's feeds, Search's People and Music): one tab stop, the arrow
 * keys move between tabs and select as they go (the WAI-ARIA tabs pattern with automatic
 * activation).
 */
export function Tabs<T extends string>({ tabs, selected, onSelect, label, tabId, panelId }: TabsProps<T>) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const index = tabs.findIndex((t) => t.id === selected);
    const next = (index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
    const target = tabs[next];
    if (target) {
      onSelect(target.id);
      refs.current[next]?.focus();
    }
  }

  return (
    <div
      role="tablist"
      aria-label={label}
      className={styles.tabs}
      onKeyDown={onKeyDown}
    >
      {tabs.map((t, index) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="tab"
          id={tabId(t.id)}
          aria-selected={selected === t.id}
          aria-controls={panelId(t.id)}
          tabIndex={selected === t.id ? 0 : -1}
          className={styles.tab}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
