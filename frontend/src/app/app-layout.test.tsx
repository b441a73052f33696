/**
 * The now-playing bar inside the app's layout: it appears with the track once something plays,
 * links to the post, and the music goes on while the listener moves between pages.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { LocationProbe, currentLocation, testQueryClient } from '../test/render';
import { AudioTrack } from '../features/player/audio-track';
import { playTo, stubMedia } from '../features/player/test-media';
import type { AudioItem } from '../features/player';
import { AppLayout } from './app-layout';
import { Providers } from './providers';

const TRACK: AudioItem = {
  title: 'Night Drive',
  artist: 'Ana Sol',
  coverUrl: null,
  duration: '3:05',
  durationSeconds: 185,
  url: '/media/night-drive.mp3',
  peaks: null,
  loudness: null,
  streams: [],
};

function renderApp() {
  return render(
    <Providers client={testQueryClient()}>
      <MemoryRouter initialEntries={['/home']}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route
              path="home"
              element={
                <>
                  <AudioTrack postId="p 1" track={TRACK} index={0} />
                  <Link to="/search">Go elsewhere</Link>
                </>
              }
            />
            <Route
              path="search"
              element={
                <>
                  <h1>Search</h1>
                  <p>Search page</p>
                  <Link to="/own-focus">A page with its own focus</Link>
                </>
              }
            />
            <Route path="own-focus" element={<input aria-label="Focused by its page" autoFocus />} />
            <Route path="post/:postId" element={<p>Post page</p>} />
          </Route>
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
}

const bar = () => screen.getByRole('region', { name: 'Now playing' });
const shell = () => document.querySelector('#main')!.parentElement!;

describe('AppLayout with the now-playing bar', () => {
  it('shows no bar and leaves no room for one before anything plays', () => {
    renderApp();
    expect(screen.queryByRole('region', { name: 'Now playing' })).toBeNull();
    expect(shell()).not.toHaveAttribute('data-now-playing');
  });

  it('shows the playing track with a link to its post, and keeps playing from page to page', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));

    // The bar is loaded on demand, the first time something plays.
    expect(await screen.findByRole('region', { name: 'Now playing' })).toBeInTheDocument();
    expect(within(bar()).getByText('Night Drive')).toBeInTheDocument();
    expect(within(bar()).getByText('Ana Sol')).toBeInTheDocument();
    expect(within(bar()).getByRole('link', { name: /Night Drive/ })).toHaveAttribute('href', '/post/p%201');
    expect(within(bar()).getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
    // The content is padded so the bar covers none of it.
    expect(shell()).toHaveAttribute('data-now-playing', 'true');

    playTo(media.audio(), 30);
    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    expect(screen.getByText('Search page')).toBeInTheDocument();
    expect(media.pause).not.toHaveBeenCalled();
    expect(within(bar()).getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
    expect(within(bar()).getByRole('slider', { name: 'Seek Night Drive' })).toHaveAttribute(
      'aria-valuetext',
      '0:30 of 3:05',
    );

    await user.click(within(bar()).getByRole('link', { name: /Night Drive/ }));
    expect(currentLocation()).toBe('/post/p%201');
    expect(bar()).toBeInTheDocument();
  });

  it('pauses and seeks from the bar, in step with the track in the post', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    await screen.findByRole('region', { name: 'Now playing' });

    await user.click(within(bar()).getByRole('button', { name: 'Pause Night Drive' }));
    expect(media.pause).toHaveBeenCalled();
    expect(within(bar()).getByRole('button', { name: 'Play Night Drive' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Play Night Drive' })).toHaveLength(2);

    const slider = within(bar()).getByRole('slider', { name: 'Seek Night Drive' });
    slider.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(media.audio().currentTime).toBe(10);
    // The track in the post, and the bar's own line for phones (beside no slider's times).
    expect(screen.getAllByText('0:10 / 3:05')).toHaveLength(2);
    expect(within(bar()).getByTestId('phone-time')).toHaveTextContent('0:10 / 3:05');
  });

  it('sets and mutes the volume, remembered on this device', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    await screen.findByRole('region', { name: 'Now playing' });

    fireEvent.change(within(bar()).getByRole('slider', { name: 'Volume' }), { target: { value: '0.4' } });
    expect(media.audio().volume).toBe(0.4);
    await user.click(within(bar()).getByRole('button', { name: 'Mute' }));
    expect(media.audio().muted).toBe(true);
    expect(within(bar()).getByRole('slider', { name: 'Volume' })).toHaveAttribute('aria-valuetext', '0%');
    expect(JSON.parse(localStorage.getItem('selfsound.volume') ?? '{}')).toEqual({ volume: 0.4, muted: true });
    await user.click(within(bar()).getByRole('button', { name: 'Unmute' }));
    expect(media.audio().muted).toBe(false);
  });

  it('answers the keyboard while a track is loaded, and lists its keys on ?', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    await screen.findByRole('region', { name: 'Now playing' });
    (document.activeElement as HTMLElement | null)?.blur();

    await user.keyboard('k');
    expect(within(bar()).getByRole('button', { name: 'Play Night Drive' })).toBeInTheDocument();
    await user.keyboard(' ');
    expect(within(bar()).getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
    await user.keyboard('{ArrowRight}l');
    expect(media.audio().currentTime).toBe(15);
    await user.keyboard('m');
    expect(media.audio().muted).toBe(true);

    // Not while typing.
    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    await user.click(screen.getByRole('link', { name: 'A page with its own focus' }));
    await user.keyboard('k');
    expect(within(bar()).getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Focused by its page' })).toHaveValue('k');

    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('?');
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Play or pause')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(bar()).getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
  });

  it('closes the bar, stopping the music', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    await user.click(await screen.findByRole('button', { name: 'Close player' }));

    expect(screen.queryByRole('region', { name: 'Now playing' })).toBeNull();
    expect(shell()).not.toHaveAttribute('data-now-playing');
    expect(media.pause).toHaveBeenCalled();
    expect(media.audio().hasAttribute('src')).toBe(false);
    expect(screen.getByRole('button', { name: 'Play Night Drive' })).toBeInTheDocument();
  });

  it("moves focus to the new page's heading after navigation, not on the first page", async () => {
    renderApp();
    expect(document.activeElement).toBe(document.body);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Search' });
    await waitFor(() => expect(heading).toHaveFocus());
    // A page that focuses something of its own keeps it.
    await user.click(screen.getByRole('link', { name: 'A page with its own focus' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Focused by its page' })).toHaveFocus());
  });
});
