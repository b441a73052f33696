import { Profiler } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render';
import { AudioTrack } from './audio-track';
import type { AudioItem } from './player-store';
import { fire, playTo, setDuration, stubMedia } from './test-media';

function item(overrides: Partial<AudioItem> = {}): AudioItem {
  return {
    title: 'Night Drive',
    artist: 'Ana Sol',
    coverUrl: null,
    duration: '3:05',
    durationSeconds: 185,
    url: '/media/night-drive.mp3',
    loudness: null,
    streams: [],
    peaks: new Int8Array([-40, 60, -100, 90]),
    ...overrides,
  };
}

const A = item();
const B = item({ title: 'Low Tide', artist: 'Ben', url: '/media/low-tide.mp3', duration: '2:10', durationSeconds: 130 });

function renderTracks() {
  return renderPage(
    <>
      <section aria-label="Post 1">
        <AudioTrack postId="p1" track={A} index={0} />
      </section>
      <section aria-label="Post 2">
        <AudioTrack postId="p2" track={B} index={0} />
      </section>
    </>,
  );
}

const button = (name: string) => screen.getByRole('button', { name });

describe('AudioTrack', () => {
  it('shows the cover, title, artist, a play button and elapsed/total time', () => {
    renderPage(<AudioTrack postId="p1" track={item({ coverUrl: '/media/cover.jpg' })} index={0} />);
    const group = screen.getByRole('group', { name: 'Night Drive by Ana Sol' });
    expect(within(group).getByText('Night Drive')).toBeInTheDocument();
    expect(within(group).getByText('Ana Sol')).toBeInTheDocument();
    expect(button('Play Night Drive')).toBeInTheDocument();
    expect(screen.getByText('0:00 / 3:05')).toBeInTheDocument();
    expect(document.querySelector('img')).toHaveAttribute('src', '/media/cover.jpg');
    expect(screen.getByRole('slider', { name: 'Seek Night Drive' })).toHaveAttribute('aria-valuetext', '0:00 of 3:05');
  });

  it('streams the rendition the browser plays, not the original', async () => {
    const media = stubMedia();
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type: string) =>
      type.startsWith('audio/webm') ? 'probably' : '',
    );
    const user = userEvent.setup();
    const streams = [{ url: '/media/night-drive-opus.weba', mimeType: 'audio/webm; codecs="opus"' }];
    renderPage(<AudioTrack postId="p1" track={item({ streams })} index={0} />);
    await user.click(button('Play Night Drive'));
    expect(media.audio().src).toMatch(/\/media\/night-drive-opus\.weba$/);
  });

  it('shows a placeholder when there is no cover or it does not load', () => {
    renderPage(<AudioTrack postId="p1" track={item({ coverUrl: '/media/broken.jpg' })} index={0} />);
    fireEvent.error(document.querySelector('img')!);
    expect(screen.getByTestId('cover-placeholder')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('flips play to pause and back', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    expect(button('Pause Night Drive')).toBeInTheDocument();
    expect(media.audio().src).toMatch(/\/media\/night-drive\.mp3$/);
    expect(media.play).toHaveBeenCalledTimes(1);

    await user.click(button('Pause Night Drive'));
    expect(button('Play Night Drive')).toBeInTheDocument();
    expect(media.pause).toHaveBeenCalled();
  });

  it('plays one track at a time, through one audio element', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    await user.click(button('Play Low Tide'));

    expect(button('Pause Low Tide')).toBeInTheDocument();
    expect(button('Play Night Drive')).toBeInTheDocument();
    expect(media.elements).toHaveLength(1);
    expect(media.audio().src).toMatch(/\/media\/low-tide\.mp3$/);
    // Only the playing track counts time.
    playTo(media.audio(), 12);
    expect(within(screen.getByRole('region', { name: 'Post 2' })).getByText('0:12 / 2:10')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Post 1' })).getByText('0:00 / 3:05')).toBeInTheDocument();
  });

  it('resets the button and the position at the end', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    playTo(media.audio(), 184);
    expect(screen.getByText('3:04 / 3:05')).toBeInTheDocument();

    fire(media.audio(), 'ended');
    expect(button('Play Night Drive')).toBeInTheDocument();
    expect(media.audio().currentTime).toBe(0);
    expect(screen.getByText('0:00 / 3:05')).toBeInTheDocument();
  });

  it('follows the element: its own pause, its length and its position', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    setDuration(media.audio(), 200);
    playTo(media.audio(), 65);
    expect(screen.getByText('1:05 / 3:20')).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Seek Night Drive' })).toHaveAttribute('aria-valuetext', '1:05 of 3:20');

    // Paused from outside (headset button, another app taking the audio).
    fire(media.audio(), 'pause');
    expect(button('Play Night Drive')).toBeInTheDocument();
  });

  it('seeks with the slider, by value and with the keyboard', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    const slider = screen.getByRole('slider', { name: 'Seek Night Drive' });

    fireEvent.change(slider, { target: { value: '42' } });
    expect(media.audio().currentTime).toBe(42);
    expect(screen.getByText('0:42 / 3:05')).toBeInTheDocument();

    slider.focus();
    await user.keyboard('{ArrowRight}');
    expect(media.audio().currentTime).toBe(47);
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(media.audio().currentTime).toBe(37);
    await user.keyboard('{End}');
    expect(media.audio().currentTime).toBe(185);
    await user.keyboard('{Home}');
    expect(media.audio().currentTime).toBe(0);
    // Still the same track, still playing.
    expect(button('Pause Night Drive')).toBeInTheDocument();
  });

  it('starts a track that is not playing where its slider is moved', async () => {
    const media = stubMedia();
    renderTracks();
    fireEvent.change(screen.getByRole('slider', { name: 'Seek Low Tide' }), { target: { value: '30' } });
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(media.audio().src).toMatch(/\/media\/low-tide\.mp3$/);
    expect(media.audio().currentTime).toBe(30);
    expect(await screen.findByRole('button', { name: 'Pause Low Tide' })).toBeInTheDocument();
  });

  it('seeks where the waveform is clicked or a drag on it ends', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    const canvas = within(screen.getByRole('region', { name: 'Post 1' })).getByTestId('waveform');
    vi.spyOn(canvas, 'getBoundingClientRect').mockReturnValue(new DOMRect(100, 0, 200, 40));

    fireEvent.pointerDown(canvas, { clientX: 150, pointerId: 1, pointerType: 'mouse', button: 0 });
    fireEvent.pointerMove(canvas, { clientX: 180, pointerId: 1, pointerType: 'mouse' });
    // A drag previews; it seeks only on release.
    expect(media.audio().currentTime).toBe(0);
    fireEvent.pointerUp(canvas, { clientX: 200, pointerId: 1, pointerType: 'mouse' });
    expect(media.audio().currentTime).toBe(92.5);

    // A touch that becomes a scroll does not seek.
    fireEvent.pointerDown(canvas, { clientX: 290, pointerId: 2, pointerType: 'touch' });
    fireEvent.pointerCancel(canvas, { pointerId: 2, pointerType: 'touch' });
    expect(media.audio().currentTime).toBe(92.5);
  });

  it("says 'Failed to play audio' when play() is refused", async () => {
    stubMedia(() => Promise.reject(new DOMException('No supported source', 'NotSupportedError')));
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to play audio');
    expect(button('Play Night Drive')).toBeInTheDocument();
  });

  it('does not call an interrupted play() a failure', async () => {
    let reject: (error: unknown) => void = () => {};
    const media = stubMedia(() => new Promise((_, no) => (reject = no)));
    const user = userEvent.setup();
    renderTracks();
    await user.click(button('Play Night Drive'));
    await user.click(button('Pause Night Drive'));
    await act(async () => {
      reject(new DOMException('The play() request was interrupted by a call to pause()', 'AbortError'));
      await Promise.resolve();
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(media.pause).toHaveBeenCalled();
  });

  it('plays with Space only when its own button has focus', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    renderTracks();
    await user.keyboard(' ');
    expect(media.play).not.toHaveBeenCalled();

    button('Play Night Drive').focus();
    await user.keyboard(' ');
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(button('Pause Night Drive')).toHaveFocus();
  });

  it('does not re-render the other tracks while one plays', async () => {
    const media = stubMedia();
    const user = userEvent.setup();
    const renders = { p1: 0, p2: 0 };
    renderPage(
      <>
        <Profiler id="p1" onRender={() => renders.p1++}>
          <AudioTrack postId="p1" track={A} index={0} />
        </Profiler>
        <Profiler id="p2" onRender={() => renders.p2++}>
          <AudioTrack postId="p2" track={B} index={0} />
        </Profiler>
      </>,
    );
    await user.click(button('Play Night Drive'));
    const before = { ...renders };
    for (let t = 1; t <= 8; t++) playTo(media.audio(), t / 4);
    await waitFor(() => expect(screen.getByText('0:02 / 3:05')).toBeInTheDocument());
    expect(renders.p2).toBe(before.p2);
    expect(renders.p1).toBeGreaterThan(before.p1);
  });
});
