import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { THEME_KEY } from '../../lib/theme';
import { AppearanceSection } from './appearance-section';

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

describe('AppearanceSection', () => {
  it('follows the device until a theme is chosen, then shows and remembers it', async () => {
    render(<AppearanceSection />);
    expect(screen.getByRole('heading', { name: 'Appearance' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Same as this device' })).toBeChecked();

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');

    await userEvent.click(screen.getByRole('radio', { name: 'Same as this device' }));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });

  it('shows the choice remembered on this device', () => {
    localStorage.setItem(THEME_KEY, 'light');
    render(<AppearanceSection />);
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
  });
});
