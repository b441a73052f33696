import { useEffect, useEffectEvent, useState } from 'react';
import { Modal } from '../../components/modal';
import { usePlayerStore } from './use-player';
import styles from './player-shortcuts.module.css';

/** How far J/L and the arrow keys move (seconds). */
const ARROW_SECONDS = 5;
const JUMP_SECONDS = 10;

/** The keys, as the help dialog lists them. */
export const SHORTCUTS: readonly { keys: readonly string[]; what: string }[] = [
  { keys: ['Space', 'K'], what: 'Play or pause' },
  { keys: ['←', '→'], what: `Back or forward ${ARROW_SECONDS} seconds` },
  { keys: ['J', 'L'], what: `Back or forward ${JUMP_SECONDS} seconds` },
  { keys: ['P', 'N'], what: 'Previous or next track' },
  { keys: ['M'], what: 'Mute or unmute' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

export const SHORTCUTS_TITLE = 'Keyboard shortcuts';

/**
 * Whether a key pressed on `target` is the page's to take: not while typing, not on a control
 * that uses it (Space presses a focused button, arrows move a slider), not inside a dialog.
 */
function forThePage(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return true;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="menu"]')) {
    return false;
  }
  const control = target.closest('button, a, [role="button"], [role="tab"], [role="slider"], summary');
  return !(control && (event.key === ' ' || event.key.startsWith('Arrow')));
}

/**
 * The player's keys while a track is loaded (issue 19): Space/K play and pause, ←/→ and J/L
 * move, P/N go to the previous or next track, M mutes, ? lists them in a dialog. Mounted with the now-playing bar.
 */
export function PlayerShortcuts({ helpOpen, onHelp }: { helpOpen: boolean; onHelp: (open: boolean) => void }) {
  const store = usePlayerStore();
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (!forThePage(event)) return;
    const at = store.getTime();
    const actions: Record<string, () => void> = {
      ' ': () => store.toggle(),
      k: () => store.toggle(),
      ArrowLeft: () => store.seek(at - ARROW_SECONDS),
      ArrowRight: () => store.seek(at + ARROW_SECONDS),
      j: () => store.seek(at - JUMP_SECONDS),
      l: () => store.seek(at + JUMP_SECONDS),
      m: () => store.toggleMute(),
      p: () => store.previous(),
      n: () => store.next(),
      '?': () => onHelp(true),
    };
    const action = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  return (
    <Modal open={helpOpen} title={SHORTCUTS_TITLE} onClose={() => onHelp(false)}>
      <dl className={styles.list}>
        {SHORTCUTS.map(({ keys, what }) => (
          <div key={what} className={styles.row}>
            <dt className={styles.keys}>
              {keys.map((key, i) => (
                <span key={key}>
                  {i > 0 ? <span className={styles.or}> or </span> : null}
                  <kbd className={styles.key}>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd className={styles.what}>{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/** The help dialog's own state, for the bar's button and the ? key. */
export function useShortcutsHelp(): [boolean, (open: boolean) => void] {
  return useState(false);
}
