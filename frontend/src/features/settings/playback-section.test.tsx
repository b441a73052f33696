import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlayerProvider } from '../player';
import { PlaybackSection } from './playback-section';

afterEach(() => localStorage.clear());

describe('PlaybackSection', () => {
  it('evens tracks out by default, and remembers the switch on this device', async () => {
    const { unmount } = render(
      <PlayerProvider>
        <PlaybackSection />
      </PlayerProvider>,
    );
    const box = screen.getByRole('checkbox', { name: /Even out loudness/ });
    expect(box).toBeChecked();
    await userEvent.click(box);
    expect(box).not.toBeChecked();
    expect(localStorage.getItem('selfsound.evenLoudness')).toBe('off');
    unmount();
    render(
      <PlayerProvider>
        <PlaybackSection />
      </PlayerProvider>,
    );
    expect(screen.getByRole('checkbox', { name: /Even out loudness/ })).not.toBeChecked();
  });
});
