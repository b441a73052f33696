import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderPage } from '../../test/render';
import { zip } from '../../test/zip';
import { FakeOsmd } from '../../test/fake-osmd';
import { OSMD_OPTIONS, SCORE_RESIZE_DEBOUNCE_MS, ScoreView } from './score-view';

// OpenSheetMusicDisplay cannot lay out music in jsdom: a stand-in records what ScoreView asks of it.
vi.mock('opensheetmusicdisplay', async () => ({
  OpenSheetMusicDisplay: (await import('../../test/fake-osmd')).FakeOsmd,
  // Only used for a transposed score, which these tests do not draw.
  TransposeCalculator: class {},
}));

/** Rendered under the app's providers (its query client and player), as the post page is. */
const render = (ui: ReactElement) => renderPage(ui);
const XML =
  '<?xml version="1.0" encoding="UTF-8"?><score-partwise version="4.0"><part-list>' +
  '<score-part id="P1"><part-name>Violin</part-name></score-part><score-part id="P2"><part-name>Piano</part-name></score-part>' +
  '</part-list><part id="P1"><measure number="1"/></part><part id="P2"><measure number="1"/></part></score-partwise>';
const at = (path: string) => new URL(path, document.baseURI).href;

function serveScores() {
  server.use(
    http.get(at('/media/song.musicxml'), () => new HttpResponse(XML, { headers: { 'Content-Type': 'application/xml' } })),
    http.get(at('/media/song.mxl'), () => new HttpResponse(zip([['song.xml', XML, true]]))),
    http.get(at('/media/broken.mxl'), () => new HttpResponse(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 9, 9]))),
    http.get(at('/media/missing.musicxml'), () => new HttpResponse('Not found', { status: 404 })),
  );
}

beforeEach(() => {
  FakeOsmd.instances = [];
  FakeOsmd.failLoad = null;
  serveScores();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const figure = () => screen.getByRole('figure', { name: 'Score: Song' });

describe('ScoreView', () => {
  it('shows a loading state, then draws the parsed MusicXML with OSMD', async () => {
    render(<ScoreView url="/media/song.musicxml" title="Song" />);
    expect(screen.getByText('Loading score...')).toBeInTheDocument();
    expect(figure()).toHaveAttribute('aria-busy', 'true');

    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    expect(screen.queryByText('Loading score...')).not.toBeInTheDocument();
    const [osmd] = FakeOsmd.instances;
    expect(FakeOsmd.instances).toHaveLength(1);
    expect(osmd?.options).toEqual(OSMD_OPTIONS);
    expect(osmd?.options).toMatchObject({ autoResize: false, disableCursor: true, backend: 'svg' });
    expect((osmd?.loaded as Document).documentElement.nodeName).toBe('score-partwise');
    expect(osmd?.renders).toHaveLength(1);
    expect(figure().querySelector('svg')).not.toBeNull();
  });

  it('unpacks a compressed .mxl and hands OSMD the score inside', async () => {
    render(<ScoreView url="/media/song.mxl" title="Song" />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    expect((FakeOsmd.instances[0]?.loaded as Document).getElementsByTagName('part')).toHaveLength(2);
  });

  it('offers the file for download when an .mxl cannot be unpacked', async () => {
    render(<ScoreView url="/media/broken.mxl" title="Song" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This score could not be displayed.');
    expect(FakeOsmd.instances).toHaveLength(0);
  });

  it('offers a player on the post page: play, tempo, count-in, metronome, each part muted or soloed', async () => {
    render(<ScoreView url="/media/song.musicxml" title="Song" player={{ postId: '7', index: 0, composer: 'Clara' }} />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    expect(screen.getByRole('button', { name: 'Play score' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Tempo' })).toHaveValue('100');
    expect(screen.getByRole('checkbox', { name: 'Count-in' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Metronome' })).not.toBeChecked();
    await userEvent.click(screen.getByText('Parts (2)'));
    const mute = screen.getByRole('button', { name: 'Mute Violin' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(mute);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Solo Piano' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows the length before the first Play, at the tempo chosen', async () => {
    const note = '<note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>';
    const timed =
      '<?xml version="1.0"?><score-partwise version="4.0"><part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>' +
      `<part id="P1"><measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>` +
      `<sound tempo="60"/>${note.repeat(4)}</measure><measure number="2">${note.repeat(4)}</measure></part></score-partwise>`;
    server.use(http.get(at('/media/timed.musicxml'), () => new HttpResponse(timed, { headers: { 'Content-Type': 'application/xml' } })));
    render(<ScoreView url="/media/timed.musicxml" title="Song" player={{ postId: '7', index: 0, composer: 'Clara' }} />);
    // Eight quarters at 60 a minute.
    await waitFor(() => expect(screen.getByLabelText('Position')).toHaveTextContent('0:00 / 0:08'));
    const tempo = screen.getByRole('slider', { name: 'Tempo' });
    fireEvent.change(tempo, { target: { value: '50' } });
    expect(screen.getByLabelText('Position')).toHaveTextContent('0:00 / 0:16');
  });

  it("keeps a score's tempo, count-in, metronome and parts on this device, down to 40 %", async () => {
    const { unmount } = render(<ScoreView url="/media/song.musicxml" title="Song" player={{ postId: '7', index: 0, composer: 'Clara' }} />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    const tempo = screen.getByRole('slider', { name: 'Tempo' });
    expect(tempo).toHaveAttribute('min', '40');
    fireEvent.change(tempo, { target: { value: '40' } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Metronome' }));
    await userEvent.click(screen.getByText('Parts (2)'));
    await userEvent.click(screen.getByRole('button', { name: 'Solo Piano' }));
    unmount();

    // Another visit of the same score: as left. Another score: its own defaults.
    render(<ScoreView url="/media/song.musicxml" title="Song" player={{ postId: '7', index: 0, composer: 'Clara' }} />);
    await waitFor(() => expect(screen.getByRole('slider', { name: 'Tempo' })).toHaveValue('40'));
    expect(screen.getByRole('checkbox', { name: 'Metronome' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Count-in' })).not.toBeChecked();
    await userEvent.click(screen.getByText('Parts (2)'));
    expect(screen.getByRole('button', { name: 'Solo Piano' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Mute Violin' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('a kept setting that no longer fits the score is left for the defaults', async () => {
    localStorage.setItem('selfsound.score:/media/song.musicxml', JSON.stringify({ tempo: 'fast', parts: [{ solo: true }], metronome: 1 }));
    render(<ScoreView url="/media/song.musicxml" title="Song" player={{ postId: '7', index: 0, composer: 'Clara' }} />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    expect(screen.getByRole('slider', { name: 'Tempo' })).toHaveValue('100');
    expect(screen.getByRole('checkbox', { name: 'Metronome' })).not.toBeChecked();
    await userEvent.click(screen.getByText('Parts (2)'));
    expect(screen.getByRole('button', { name: 'Solo Piano' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('offers no player where the score is only shown', async () => {
    render(<ScoreView url="/media/song.musicxml" title="Song" />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    expect(screen.queryByRole('button', { name: 'Play score' })).not.toBeInTheDocument();
  });

  it('offers the file for download when it cannot be fetched', async () => {
    render(<ScoreView url="/media/missing.musicxml" title="Song" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This score could not be displayed.');
    expect(screen.getByRole('link', { name: 'Download Song' })).toHaveAttribute('href', '/media/missing.musicxml');
    expect(FakeOsmd.instances).toHaveLength(0);
  });

  it('offers the file for download when OSMD cannot read it', async () => {
    FakeOsmd.failLoad = new Error('OpenSheetMusicDisplay: Invalid MusicXML file');
    render(<ScoreView url="/media/song.musicxml" title="Song" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This score could not be displayed.');
    expect(screen.getByRole('link', { name: 'Download Song' })).toHaveAttribute('download');
  });

  it('clears OSMD and removes its drawing when it goes away', async () => {
    const { unmount } = render(<ScoreView url="/media/song.musicxml" title="Song" />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    const osmd = FakeOsmd.instances[0];
    expect(osmd?.container.isConnected).toBe(true);
    unmount();
    expect(osmd?.clears).toBe(1);
    expect(osmd?.container.isConnected).toBe(false);
  });

  it('draws once under StrictMode, whose first mount is undone at once', async () => {
    render(
      <StrictMode>
        <ScoreView url="/media/song.musicxml" title="Song" />
      </StrictMode>,
    );
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    const drawn = FakeOsmd.instances.filter((o) => o.renders.length > 0);
    expect(drawn).toHaveLength(1);
    expect(figure().querySelectorAll('svg')).toHaveLength(1);
  });

  it('lays the score out again once its width has settled, smaller on a phone', async () => {
    let observed: (() => void) | null = null;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          observed = callback;
        }
        observe() {}
        disconnect() {
          observed = null;
        }
      },
    );
    let width = 900;
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => width);

    const { unmount } = render(<ScoreView url="/media/song.musicxml" title="Song" />);
    await waitFor(() => expect(figure()).toHaveAttribute('data-status', 'ready'));
    const renders = () => FakeOsmd.instances.map((o) => o.renders);
    expect(renders()).toEqual([[1]]);

    // The first report (same width) and a burst of changes: one new layout after the burst,
    // the old drawing cleared.
    observed!();
    width = 500;
    observed!();
    width = 375;
    observed!();
    await new Promise((resolve) => setTimeout(resolve, SCORE_RESIZE_DEBOUNCE_MS + 100));
    expect(renders()).toEqual([[1], [0.65]]);
    expect(FakeOsmd.instances[0]?.clears).toBe(1);
    expect(figure().querySelectorAll('svg')).toHaveLength(1);

    // Nothing changed: nothing drawn again.
    observed!();
    await new Promise((resolve) => setTimeout(resolve, SCORE_RESIZE_DEBOUNCE_MS + 100));
    expect(renders()).toEqual([[1], [0.65]]);

    unmount();
    expect(observed).toBeNull();
  });
});
