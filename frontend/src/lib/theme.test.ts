import { afterEach, describe, expect, it } from 'vitest';
import { applyTheme, chooseTheme, storedTheme, THEME_KEY } from './theme';

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

describe('theme', () => {
  it('follows the system until a choice is remembered', () => {
    expect(storedTheme()).toBe('system');
    localStorage.setItem(THEME_KEY, 'nonsense');
    expect(storedTheme()).toBe('system');
  });

  it('remembers a choice and shows it on the root element', () => {
    chooseTheme('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(storedTheme()).toBe('dark');
    chooseTheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('goes back to the system setting, forgetting the choice', () => {
    chooseTheme('dark');
    chooseTheme('system');
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('applies a choice to any root it is given', () => {
    const root = document.createElement('html');
    applyTheme('dark', root);
    expect(root.getAttribute('data-theme')).toBe('dark');
    applyTheme('system', root);
    expect(root.hasAttribute('data-theme')).toBe(false);
  });
});
