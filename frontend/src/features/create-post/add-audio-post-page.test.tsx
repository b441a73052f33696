import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router';
import { api, server } from '../../test/server';
import { currentLocation, renderPage, testQueryClient } from '../../test/render';
import { storeToken } from '../../lib/token-storage';
import { AddAudioPostPage } from './add-audio-post-page';
import { MB } from './validation';

function audio(name: string, size?: number, type = 'audio/mpeg'): File {
  const file = new File(['ID3'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

function SignInProbe() {
  const state = useLocation().state as { from?: string; notice?: string } | null;
  return (
    <p>
      Sign-in page: {state?.notice} from {state?.from}
    </p>
  );
}

function renderAudioPage() {
  const queryClient = testQueryClient();
  // A feed someone looked at before (a list showing the 'posts' topic, as the feeds do): the
  // new post must show there next time.
  queryClient
    .getQueryCache()
    .build(queryClient, { queryKey: ['posts', 'feed', 'for-you'], meta: { shows: ['posts'] } })
    .setData({ pages: [], pageParams: [] });
  const utils = renderPage(<AddAudioPostPage />, {
    route: '/add-post-audio',
    path: '/add-post-audio',
    queryClient,
    routes: { '/sign-in': <SignInProbe /> },
  });
  const user = userEvent.setup({ applyAccept: false });
  const pick = (...files: File[]) => user.upload(screen.getByLabelText('Audio files'), files);
  return { ...utils, user, pick };
}

interface Received {
  titles: FormDataEntryValue[];
  artists: FormDataEntryValue[];
  caption: FormDataEntryValue | null;
  genre: FormDataEntryValue | null;
  files: number;
}

/** Answers POST /posts/audio, after `gate` if given, recording the form. */
function answerAudio(reply: () => Response, gate?: Promise<void>) {
  const received: Received[] = [];
  server.use(
    http.post(api('/posts/audio'), async ({ request }) => {
      const form = await request.formData();
      received.push({
        titles: form.getAll('titles'),
        artists: form.getAll('artists'),
        caption: form.get('caption'),
        genre: form.get('genre'),
        files: form.getAll('audio_files').length,
      });
      if (gate) await gate;
      return reply();
    }),
  );
  return received;
}

const created = () => HttpResponse.json({ id: '1', type: 'audio' }, { status: 201 });

describe('AddAudioPostPage', () => {
  beforeEach(() => {
    // Failures are logged for developers; the tests read the banner instead.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('is titled "Add new post", with a close link home and the kinds of post', () => {
    renderAudioPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Add new post' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Close' })).toHaveAttribute('href', '/home');
    const kinds = screen.getByRole('navigation', { name: 'Kind of post' });
    expect(within(kinds).getByText('Audio').closest('[aria-current="page"]')).not.toBeNull();
    expect(within(kinds).getByRole('link', { name: 'Lyrics' })).toHaveAttribute('href', '/add-post-lyrics');
    expect(screen.getByLabelText(/Caption/)).toBeInTheDocument();
  });

  it('prefills the title from the file name and the artist with "Unknown Artist"', async () => {
    const { pick } = renderAudioPage();
    await pick(audio('Morning Song.mp3'), audio('take.2.wav', 3 * MB, 'audio/wav'));
    const files = screen.getByRole('region', { name: 'Selected files' });
    const cards = within(files).getAllByRole('group');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByLabelText('Title')).toHaveValue('Morning Song');
    expect(within(cards[0]!).getByLabelText('Artist')).toHaveValue('Unknown Artist');
    expect(within(cards[1]!).getByLabelText('Title')).toHaveValue('take.2');
    expect(within(cards[1]!).getByText('3.0 MB')).toBeInTheDocument();
    expect(screen.getByText(/file's own tags are used/)).toBeInTheDocument();
  });

  it('refuses files that are not audio or are over 50MB, naming them', async () => {
    const { pick } = renderAudioPage();
    await pick(audio('notes.txt', 10, 'text/plain'), audio('huge.wav', 50 * MB + 1), audio('ok.mp3'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('notes.txt is not an audio file');
    expect(alert).toHaveTextContent('huge.wav exceeds 50MB limit');
    expect(screen.getAllByRole('group')).toHaveLength(1);
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('holds at most 10 files', async () => {
    const { pick } = renderAudioPage();
    await pick(...Array.from({ length: 11 }, (_, i) => audio(`t${i}.mp3`)));
    expect(screen.getAllByRole('group')).toHaveLength(10);
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 10 audio files allowed per post');
    expect(screen.getByRole('button', { name: 'Add more' })).toBeDisabled();
  });

  it('takes dropped files too', async () => {
    renderAudioPage();
    const zone = screen.getByRole('button', { name: 'Choose files' }).parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [audio('dropped.mp3')], types: ['Files'] } });
    expect(await screen.findByDisplayValue('dropped')).toBeInTheDocument();
  });

  it('removes a file and keeps focus on the list', async () => {
    const { pick, user } = renderAudioPage();
    await pick(audio('a.mp3'), audio('b.mp3'));
    await user.click(screen.getByRole('button', { name: 'Remove a.mp3' }));
    expect(screen.queryByDisplayValue('a')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove b.mp3' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove b.mp3' }));
    expect(screen.queryByRole('region', { name: 'Selected files' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveFocus();
  });

  it('asks for a file first', async () => {
    const { user } = renderAudioPage();
    const received = answerAudio(created);
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one audio file');
    expect(received).toHaveLength(0);
  });

  it('asks for a title and an artist for every file', async () => {
    const { pick, user } = renderAudioPage();
    const received = answerAudio(created);
    await pick(audio('a.mp3'));
    await user.clear(screen.getByLabelText('Artist'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in title and artist for all audio files');
    expect(screen.getByLabelText('Artist')).toHaveAttribute('aria-invalid', 'true');
    expect(received).toHaveLength(0);
    // Focus goes to the field to fix, beside its message; the rule is said once.
    await waitFor(() => expect(screen.getByLabelText('Artist')).toHaveFocus());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // Fixing the field clears the message.
    await user.type(screen.getByLabelText('Artist'), 'Ada');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('uploads with the bar, leaves untouched defaults to the server, then goes to / after 2 s', async () => {
    storeToken('tok');
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const received = answerAudio(created, gate);
    const { pick, user, queryClient } = renderAudioPage();
    await pick(audio('Morning Song.mp3'), audio('b.mp3'));
    const second = screen.getAllByRole('group')[1]!;
    await user.clear(within(second).getByLabelText('Title'));
    await user.type(within(second).getByLabelText('Title'), 'Evening');
    await user.clear(within(second).getByLabelText('Artist'));
    await user.type(within(second).getByLabelText('Artist'), 'Ada');
    await user.type(screen.getByLabelText(/Caption/), 'Two takes');
    await user.selectOptions(screen.getByLabelText(/Genre/), 'Hip-hop');
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    // The server holds its answer: the bar moves (the spec's creep until the browser reports
    // real progress: see use-post-upload.test.tsx) but stays short of 100 %.
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(5));
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(85);
    expect(bar.getAttribute('aria-valuetext')).toMatch(/^Uploading\.\.\. \d+%$/);
    expect(screen.getByRole('button', { name: 'Publishing...' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Remove b.mp3' })).toBeDisabled();

    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(received).toEqual([{ titles: ['', 'Evening'], artists: ['', 'Ada'], caption: 'Two takes', genre: 'Hip-hop', files: 2 }]);
    expect(queryClient.getQueryState(['posts', 'feed', 'for-you'])?.isInvalidated).toBe(true);
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveAttribute('aria-disabled', 'true');
    expect(currentLocation()).toBe('/add-post-audio');
    await waitFor(() => expect(currentLocation()).toBe('/'), { timeout: 3000 });
  });

  it('sends once however often Publish is pressed', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const received = answerAudio(created, gate);
    const { pick } = renderAudioPage();
    await pick(audio('a.mp3'));
    const publish = screen.getByRole('button', { name: 'Publish' });
    fireEvent.click(publish);
    fireEvent.click(publish);
    fireEvent.submit(publish.closest('form')!);
    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
    expect(received).toHaveLength(1);
  });

  it("shows the server's words in a banner that can be dismissed, and lets the person try again", async () => {
    answerAudio(() => HttpResponse.json({ detail: 'a.mp3 is not an audio file' }, { status: 415 }));
    const { pick, user } = renderAudioPage();
    await pick(audio('a.mp3'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('a.mp3 is not an audio file');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    answerAudio(() => new HttpResponse('database is down', { status: 503, headers: { 'Content-Type': 'text/plain' } }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP 503: database is down');

    answerAudio(() => HttpResponse.json({}, { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to create audio post'));
  });

  it('a network failure says so', async () => {
    server.use(http.post(api('/posts/audio'), () => HttpResponse.error()));
    const { pick, user } = renderAudioPage();
    await pick(audio('a.mp3'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('an expired session sends the person to sign in, to come back here', async () => {
    storeToken('old');
    answerAudio(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    const { pick, user } = renderAudioPage();
    await pick(audio('a.mp3'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(
      await screen.findByText('Sign-in page: Session expired. Please sign in again. from /add-post-audio'),
    ).toBeInTheDocument();
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});
