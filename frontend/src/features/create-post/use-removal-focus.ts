import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps keyboard focus in place when an item is removed with its own button: it moves to the
 * remove button now at that position (or the last one), else to the element marked
 * `data-focus-fallback` (the picker's button). Returns "item `index` is being removed".
 */
export function useRemovalFocus(container: RefObject<HTMLElement | null>): (index: number) => void {
  const pending = useRef<number | null>(null);
  useEffect(() => {
    const index = pending.current;
    if (index === null) return;
    pending.current = null;
    const root = container.current;
    if (!root) return;
    const buttons = root.querySelectorAll<HTMLElement>('[data-remove]');
    const target = buttons[Math.min(index, buttons.length - 1)] ?? root.querySelector<HTMLElement>('[data-focus-fallback]');
    target?.focus();
  });
  return (index: number) => {
    pending.current = index;
  };
}
