import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { AddLyricsPostPage } from './add-lyrics-post-page';

function renderLyricsPage() {
  const utils = renderPage(<AddLyricsPostPage />, { route: '/add-post-lyrics', path: '/add-post-lyrics' });
  return { ...utils, user: userEvent.setup() };
}

function answerLyrics(reply: () => Response) {
  const received: unknown[] = [];
  server.use(
    http.post(api('/posts/lyrics'), async ({ request }) => {
      received.push(await request.json());
      return reply();
    }),
  );
  return received;
}

const lyricsOf = (n: number) => screen.getByLabelText(`Part ${n} lyrics`);
const typeOf = (n: number) => screen.getByLabelText(`Part ${n} type`);

describe('AddLyricsPostPage', () => {
  it('starts with the song fields, one part to fill in and the caption', () => {
    renderLyricsPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Add new post' })).toBeInTheDocument();
    expect(screen.getByLabelText('Song title')).toHaveValue('');
    expect(screen.getByLabelText('Artist')).toHaveValue('');
    expect(typeOf(1)).toHaveValue('');
    const options = within(typeOf(1)).getAllByRole('option').map((o) => o.getAttribute('value'));
    expect(options).toEqual(['', 'intro', 'verse', 'pre-chorus', 'chorus', 'bridge', 'outro']);
    expect(screen.getByLabelText(/Caption/)).toBeInTheDocument();
  });

  it('asks for every required field and marks the empty ones', async () => {
    const received = answerLyrics(() => HttpResponse.json({ id: '1' }, { status: 201 }));
    const { user } = renderLyricsPage();
    await user.type(screen.getByLabelText('Song title'), 'Yesterday');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(screen.getByLabelText('Song title')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Artist')).toHaveAttribute('aria-invalid', 'true');
    expect(typeOf(1)).toHaveAttribute('aria-invalid', 'true');
    expect(lyricsOf(1)).toHaveAttribute('aria-invalid', 'true');
    expect(received).toHaveLength(0);
    // Focus goes to the first field to fix, its message beside it; one banner says the rule.
    await waitFor(() => expect(screen.getByLabelText('Artist')).toHaveFocus());
    expect(screen.getAllByRole('alert')).toHaveLength(1);

    // Whitespace is not lyrics.
    await user.type(screen.getByLabelText('Artist'), 'The Beatles');
    await user.selectOptions(typeOf(1), 'verse');
    await user.type(lyricsOf(1), '   ');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(received).toHaveLength(0);
  });

  it('adds up to 10 parts, moves and removes them', async () => {
    const { user } = renderLyricsPage();
    await user.type(lyricsOf(1), 'first');
    await user.click(screen.getByRole('button', { name: 'Add part' }));
    expect(typeOf(2)).toHaveFocus();
    await user.type(lyricsOf(2), 'second');

    await user.click(screen.getByRole('button', { name: 'Move part 2 up' }));
    expect(lyricsOf(1)).toHaveValue('second');
    expect(lyricsOf(2)).toHaveValue('first');
    // The moved part is now first: its "up" is disabled, focus goes to its type.
    expect(screen.getByRole('button', { name: 'Move part 1 up' })).toBeDisabled();
    expect(typeOf(1)).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Move part 1 down' }));
    expect(lyricsOf(1)).toHaveValue('first');

    await user.click(screen.getByRole('button', { name: 'Remove part 1' }));
    expect(lyricsOf(1)).toHaveValue('second');
    expect(screen.queryByLabelText('Part 2 lyrics')).toBeNull();
    // The last part cannot go: a song needs one.
    expect(screen.getByRole('button', { name: 'Remove part 1' })).toBeDisabled();

    for (let i = 0; i < 9; i += 1) await user.click(screen.getByRole('button', { name: 'Add part' }));
    expect(screen.getByLabelText('Part 10 lyrics')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add part' })).toBeDisabled();
    expect(screen.getByText('A song can have up to 10 parts.')).toBeInTheDocument();
  });

  it('sends the song as JSON, then goes home after 1.5 s', async () => {
    const received = answerLyrics(() => HttpResponse.json({ id: '1', type: 'lyrics' }, { status: 201 }));
    const { user } = renderLyricsPage();
    await user.type(screen.getByLabelText('Song title'), '  Yesterday ');
    await user.type(screen.getByLabelText('Artist'), 'The Beatles');
    await user.selectOptions(typeOf(1), 'verse');
    await user.type(lyricsOf(1), 'All my troubles{Enter}seemed so far away');
    await user.click(screen.getByRole('button', { name: 'Add part' }));
    await user.selectOptions(typeOf(2), 'pre-chorus');
    await user.type(lyricsOf(2), 'Why she had to go');
    await user.type(screen.getByLabelText(/Caption/), 'A classic');
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
    expect(received).toEqual([
      {
        songTitle: 'Yesterday',
        artistName: 'The Beatles',
        parts: [
          { type: 'verse', lyrics: 'All my troubles\nseemed so far away' },
          { type: 'pre-chorus', lyrics: 'Why she had to go' },
        ],
        caption: 'A classic',
      },
    ]);
    expect(screen.getByLabelText('Song title')).toBeDisabled();
    await waitFor(() => expect(currentLocation()).toBe('/home'), { timeout: 2500 });
  });

  it("shows the server's detail, else 'Failed to create lyrics post'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answerLyrics(() => HttpResponse.json({ detail: 'Please fill in all required fields' }, { status: 400 }));
    const { user } = renderLyricsPage();
    await user.type(screen.getByLabelText('Song title'), 'A');
    await user.type(screen.getByLabelText('Artist'), 'B');
    await user.selectOptions(typeOf(1), 'intro');
    await user.type(lyricsOf(1), 'words');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all required fields');

    answerLyrics(() => HttpResponse.json({ error: 'boom' }, { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to create lyrics post'));
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveAttribute('aria-disabled', 'false');
  });
});
