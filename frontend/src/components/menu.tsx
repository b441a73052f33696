import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { DotsIcon } from './first-load-icons';
import styles from './menu.module.css';

export const MENU_WORDS = { cancel: 'Cancel' } as const;

/** One entry of a menu: adding an action to a menu is adding one of these. */
export interface MenuItem {
  /** What the item says; also its accessible name. */
  label: string;
  /** Shown before the label (decorative: icons here are aria-hidden). */
  icon?: ReactNode;
  /** In the danger colour: deleting, blocking. */
  danger?: boolean;
  /** Not usable yet (aria-disabled: it keeps its place and can still take focus). */
  disabled?: boolean;
  /**
   * What choosing it does. The menu closes first and gives focus back to its button, where a
   * dialog the item opens gives it back too when it closes.
   */
  onSelect: () => void;
  /** The menu stays open after the choice; the owner closes it (`open`, `onOpenChange`). */
  keepOpen?: boolean;
  /** Pointed at or focused: the moment to fetch what choosing it opens. */
  onIntent?: () => void;
}

interface MenuProps {
  /** The button's accessible name, e.g. 'Post options'. */
  label: string;
  /** The popup's accessible name; the button's by default. */
  menuLabel?: string;
  /** The items in order (false, null or undefined entries are left out); Cancel always comes last. */
  items: readonly (MenuItem | false | null | undefined)[];
  /** 'icon': a round borderless button (post cards); 'button': the app's secondary button (profiles). */
  look?: 'icon' | 'button';
  /** Open or closed, for an owner that closes the menu itself later (see `keepOpen`). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /**
   * A dialog an item opened is up while the menu stays open: clicks and keys are the dialog's
   * until it closes, then focus comes back to the first item.
   */
  behindDialog?: boolean;
  /** What the items open (dialogs), kept beside the menu. */
  children?: ReactNode;
}

/**
 * A three-dot button and its popup menu (spec §2 Post card, Profile): the items, then Cancel.
 * Keyboard: focus goes to the first item on opening, the arrow keys move between items (and wrap
 * around), Escape closes and returns to the button, Tab closes and moves on. A click elsewhere
 * closes it too.
 */
export function Menu({
  label,
  menuLabel = label,
  items,
  look = 'icon',
  open: openProp,
  onOpenChange,
  behindDialog = false,
  children,
}: MenuProps) {
  const menuId = useId();
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openProp ?? ownOpen;
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);

  function setOpen(next: boolean) {
    if (openProp === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  }

  function close(focusButton: boolean) {
    setOpen(false);
    if (focusButton) triggerRef.current?.focus();
  }

  // The page's clicks and keys reach the menu through the latest props, without re-running the
  // effect below (which moves focus to the first item).
  const dismiss = useEffectEvent((focusButton: boolean) => close(focusButton));

  useEffect(() => {
    if (!open || behindDialog) return;
    const entries = () => Array.from(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    entries()[0]?.focus();
    const onPointer = (event: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) dismiss(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' || event.key === 'Tab') {
        dismiss(event.key === 'Escape');
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const list = entries();
      const index = list.indexOf(document.activeElement as HTMLElement);
      const step = event.key === 'ArrowDown' ? 1 : list.length - 1;
      event.preventDefault();
      list[(index + step + list.length) % list.length]?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, behindDialog]);

  const shown = items.filter((item): item is MenuItem => Boolean(item));
  const itemClass = (item: Pick<MenuItem, 'danger'>) => (item.danger ? `${styles.item} ${styles.danger}` : styles.item);

  return (
    <div className={`${styles.root} ${styles[look]}`} ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className={look === 'button' ? `btn btn-secondary ${styles.trigger}` : styles.trigger}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <DotsIcon size={20} />
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label={menuLabel} className={styles.menu}>
          {shown.map((item, index) => (
            // By place: an item's label may change while it has focus ('Loading...' → 'Block user').
            <button
              key={index}
              type="button"
              role="menuitem"
              className={itemClass(item)}
              aria-disabled={item.disabled}
              onClick={() => {
                if (item.disabled) return;
                if (!item.keepOpen) close(true);
                item.onSelect();
              }}
              onPointerEnter={item.onIntent}
              onFocus={item.onIntent}
            >
              {item.icon}
              {item.label}
            </button>
          ))}
          <button type="button" role="menuitem" className={styles.item} onClick={() => close(true)}>
            {MENU_WORDS.cancel}
          </button>
        </div>
      ) : null}
      {children}
    </div>
  );
}
