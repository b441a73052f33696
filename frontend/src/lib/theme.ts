/**
 * Light or dark (issue 19): the app follows the system's setting unless the person chose one in
 * Settings → Appearance, remembered on this device. The colours themselves are the design
 * tokens of `styles/global.css`, each a `light-dark()` pair: the system's setting picks one
 * without any script, and a choice here sets `data-theme` on `<html>`, which fixes
 * `color-scheme` (and so the pair) either way.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_KEY = 'selfsound.theme';

export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Same as this device' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The choice remembered on this device; the system's when none (or storage is refused). */
export function storedTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Shows `choice` now: `data-theme` on `<html>`, none for the system's setting. */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

/** Remembers `choice` on this device and shows it. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (a private window): the choice holds for this page only.
  }
  applyTheme(choice);
}
