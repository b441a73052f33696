import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import type { SearchHitJson } from './api';
import { SearchPage } from './search-page';

const ben: SearchHitJson = {
  id: '200',
  name: 'Ben',
  login: 'ben',
  avatar_url: '',
  tag_id: null,
  email: null,
  active: false,
};
const cleo: SearchHitJson = { ...ben, id: '300', name: 'Cleo', login: 'cleo' };

/** Answers searches from `people`, recording every query string the page sent. */
function searchServer(people: SearchHitJson[]) {
  const queries: Array<string | null> = [];
  server.use(
    http.get(api('/profiles/search'), ({ request }) => {
      const query = new URL(request.url).searchParams.get('query');
      queries.push(query);
      const q = (query ?? '').toLowerCase();
      return HttpResponse.json(people.filter((p) => p.name.toLowerCase().includes(q) || p.login.includes(q)));
    }),
  );
  return queries;
}

function listenedServer(ids: string[] | 'fail') {
  server.use(
    http.get(api('/profiles/listened'), () =>
      ids === 'fail'
        ? HttpResponse.json({ detail: 'Boom' }, { status: 500 })
        : HttpResponse.json(ids.map((id) => ({ ...ben, id }))),
    ),
  );
}

function renderSearch(route = '/search') {
  return renderPage(<SearchPage />, { route, path: '/search' });
}

describe('SearchPage', () => {
  it('has a Search box and lists the newest people for an empty query (query left out)', async () => {
    signedInAs(null);
    const queries = searchServer([ben, cleo]);
    renderSearch();
    expect(screen.getByPlaceholderText('Search')).toBeInTheDocument();
    expect(await screen.findByText('Ben')).toBeInTheDocument();
    expect(screen.getByText('@cleo')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'New on SelfSound' })).toBeInTheDocument();
    expect(queries).toEqual([null]);
  });

  it('waits 300 ms after the last key, trims, and searches once', async () => {
    signedInAs(null);
    const queries = searchServer([ben, cleo]);
    renderSearch();
    await screen.findByText('Ben');
    vi.useFakeTimers();
    const box = screen.getByPlaceholderText('Search');
    fireEvent.change(box, { target: { value: ' c' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: ' cle ' } });
    act(() => vi.advanceTimersByTime(299));
    expect(queries).toEqual([null]);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(queries).toEqual([null, 'cle']));
    await waitFor(() => expect(screen.queryByText('Ben')).toBeNull());
    expect(screen.getByText('Cleo')).toBeInTheDocument();
    expect(currentLocation()).toBe('/search?q=cle');
  });

  it("says 'No results found.' when a query matches nobody", async () => {
    signedInAs(null);
    searchServer([ben]);
    renderSearch();
    await userEvent.setup().type(screen.getByPlaceholderText('Search'), 'zed');
    expect(await screen.findByText('No results found.')).toBeInTheDocument();
  });

  it('does not say it for an empty query with nobody to show', async () => {
    signedInAs(null);
    searchServer([]);
    renderSearch();
    expect(await screen.findByText('Nobody else is here yet.')).toBeInTheDocument();
    expect(screen.queryByText('No results found.')).toBeNull();
  });

  it('starts from the ?q= of the address', async () => {
    signedInAs(null);
    const queries = searchServer([ben, cleo]);
    renderSearch('/search?q=ben');
    expect(await screen.findByText('Ben')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search')).toHaveValue('ben');
    expect(queries).toEqual(['ben']);
  });

  it('opens a profile from a row', async () => {
    signedInAs(null);
    searchServer([ben]);
    renderSearch();
    await userEvent.setup().click(await screen.findByRole('link', { name: /Ben/ }));
    expect(currentLocation()).toBe('/user/200');
  });

  it('sends the bearer token when signed in', async () => {
    signedInAs(ADA);
    listenedServer([]);
    let auth: string | null = null;
    server.use(
      http.get(api('/profiles/search'), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json([ben]);
      }),
    );
    renderSearch();
    await screen.findByText('Ben');
    expect(auth).toBe('Bearer test-token');
  });

  it('Listen: POST, then the button says Unlisten; Unlisten: DELETE, back to Listen', async () => {
    signedInAs(ADA);
    searchServer([ben]);
    let listening: string[] = [];
    const calls: string[] = [];
    server.use(
      http.get(api('/profiles/listened'), () => HttpResponse.json(listening.map((id) => ({ ...ben, id })))),
      http.post(api('/profiles/listening/:id'), ({ params }) => {
        calls.push(`POST ${String(params.id)}`);
        listening = [String(params.id)];
        return HttpResponse.json({ message: 'ok' });
      }),
      http.delete(api('/profiles/listening/:id'), ({ params }) => {
        calls.push(`DELETE ${String(params.id)}`);
        listening = [];
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    renderSearch();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Listen Ben' }));
    expect(await screen.findByRole('button', { name: 'Unlisten Ben' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Unlisten Ben' }));
    expect(await screen.findByRole('button', { name: 'Listen Ben' })).toBeEnabled();
    expect(calls).toEqual(['POST 200', 'DELETE 200']);
  });

  it("shows Unlisten for people already listened to (the server's active flag, then the list)", async () => {
    signedInAs(ADA);
    searchServer([{ ...ben, active: true }, cleo]);
    listenedServer(['200']);
    renderSearch();
    expect(await screen.findByRole('button', { name: 'Unlisten Ben' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Listen Cleo' })).toBeInTheDocument();
  });

  it('only logs a failed toggle (other than a refusal) and keeps the button as it was', async () => {
    signedInAs(ADA);
    searchServer([ben]);
    listenedServer([]);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(
      http.post(api('/profiles/listening/:id'), () => HttpResponse.json({ detail: 'Boom' }, { status: 500 })),
    );
    renderSearch();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Listen Ben' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Failed to update listening status', expect.anything()));
    expect(screen.getByRole('button', { name: 'Listen Ben' })).toBeEnabled();
    expect(alert).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says 'Unavailable' and why when the server refuses (a blocked pair, 403)", async () => {
    signedInAs(ADA);
    searchServer([ben, cleo]);
    listenedServer([]);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(
      http.post(api('/profiles/listening/:id'), () =>
        HttpResponse.json(
          { detail: 'Cannot listen to this user because either you have blocked them or they have blocked you.' },
          { status: 403 },
        ),
      ),
    );
    renderSearch();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Listen Ben' }));
    const row = (await screen.findByRole('button', { name: 'Unavailable: Ben' })).closest('li')!;
    expect(within(row).getByRole('button', { name: 'Unavailable: Ben' })).toBeDisabled();
    expect(within(row).getByRole('status')).toHaveTextContent(
      'Cannot listen to this user because either you have blocked them or they have blocked you.',
    );
    // Only that row changes, and no browser dialog.
    expect(screen.getByRole('button', { name: 'Listen Cleo' })).toBeEnabled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('shows the button busy while the call runs', async () => {
    signedInAs(ADA);
    searchServer([ben]);
    let listening: string[] = [];
    let finish: () => void = () => {};
    server.use(
      http.get(api('/profiles/listened'), () => HttpResponse.json(listening.map((id) => ({ ...ben, id })))),
      http.post(api('/profiles/listening/:id'), async () => {
        await new Promise<void>((r) => (finish = r));
        listening = ['200'];
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    renderSearch();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Listen Ben' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Listen Ben' })).toBeDisabled());
    finish();
    expect(await screen.findByRole('button', { name: 'Unlisten Ben' })).toBeEnabled();
  });

  it('sends a guest who clicks Listen to /sign-in', async () => {
    signedInAs(null);
    searchServer([ben]);
    renderSearch();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Listen Ben' }));
    expect(currentLocation()).toBe('/sign-in');
  });

  it('treats a failed listened-list call as a guest', async () => {
    signedInAs(ADA);
    searchServer([ben]);
    listenedServer('fail');
    const posted = vi.fn();
    server.use(http.post(api('/profiles/listening/:id'), () => (posted(), HttpResponse.json({}))));
    renderSearch();
    const row = (await screen.findByText('Ben')).closest('li')!;
    // Let the listened list fail first.
    await waitFor(() => expect(within(row).getByRole('button')).toBeEnabled());
    await new Promise((r) => setTimeout(r, 20));
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Listen Ben' }));
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(posted).not.toHaveBeenCalled();
  });

  it('offers Try Again when the search fails', async () => {
    signedInAs(null);
    let fail = true;
    server.use(
      http.get(api('/profiles/search'), () =>
        fail ? HttpResponse.json({ detail: 'x' }, { status: 500 }) : HttpResponse.json([ben]),
      ),
    );
    renderSearch();
    expect(await screen.findByRole('alert')).toHaveTextContent('Search failed. Please try again.');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Ben')).toBeInTheDocument();
  });

  describe('Music', () => {
    function song(id: string, title: string) {
      return {
        id,
        type: 'lyrics',
        caption: null,
        created_at: '2026-11-23T13:05:00Z',
        likes_count: 0,
        comments_count: 0,
        user_liked: false,
        user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null },
        lyrics: { title, artist: 'Ana', lyrics_text: 'la', parts: [] },
      };
    }

    /** `post` as a search finds it: with why (`search`). */
    function found(post: ReturnType<typeof song>, everyWord: boolean, field: string, pieces: Array<[string, boolean]>) {
      const snippet = pieces.map(([text, hit]) => ({ text, hit }));
      return { ...post, search: { every_word: everyWord, matches: [{ field, snippet }] } };
    }

    /** Answers music searches with `found` for every query, recording each query string. */
    function musicServer(found: object[]) {
      const asked: string[] = [];
      server.use(
        http.get(api('/posts/search'), ({ request }) => {
          asked.push(new URL(request.url).search);
          return HttpResponse.json(found);
        }),
      );
      return asked;
    }

    it('People is the default tab; Music asks nothing until words are typed, then finds posts', async () => {
      signedInAs(null);
      searchServer([ben]);
      const asked = musicServer([song('9', 'River Song')]);
      renderSearch();
      const user = userEvent.setup();
      expect(screen.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
      await user.click(screen.getByRole('tab', { name: 'Music' }));
      expect(currentLocation()).toBe('/search?tab=music');
      expect(screen.getByRole('heading', { name: 'Find music' })).toBeInTheDocument();
      expect(screen.getByLabelText('Search music')).toBeInTheDocument();
      expect(asked).toEqual([]);
      await user.type(screen.getByPlaceholderText('Search'), 'river');
      expect(await screen.findByRole('heading', { name: 'River Song' })).toBeInTheDocument();
      expect(asked).toEqual(['?q=river&limit=10']);
      expect(currentLocation()).toBe('/search?tab=music&q=river');
    });

    it('narrows to one kind, kept in the address', async () => {
      signedInAs(null);
      const asked = musicServer([song('9', 'River Song')]);
      renderSearch('/search?tab=music&q=river');
      await screen.findByRole('heading', { name: 'River Song' });
      await userEvent.setup().click(screen.getByRole('radio', { name: 'Scores' }));
      await waitFor(() => expect(asked.at(-1)).toBe('?q=river&type=musicxml&limit=10'));
      expect(currentLocation()).toBe('/search?tab=music&q=river&type=musicxml');
      expect(screen.getByRole('radio', { name: 'Scores' })).toBeChecked();
    });

    it('shows why each post was found, its words marked', async () => {
      signedInAs(null);
      musicServer([
        found(song('9', 'Harbour Lights'), true, 'lyrics', [
          ['…', false],
          ['carry', true],
          [' me ', false],
          ['home', true],
        ]),
      ]);
      renderSearch('/search?tab=music&q=carry+home');
      await screen.findByRole('heading', { name: 'Harbour Lights' });
      const snippet = document.querySelector('[data-search-snippet]') as HTMLElement;
      expect(snippet).toHaveTextContent('Lyrics…carry me home');
      expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['carry', 'home']);
      expect(screen.queryByText(/No post has all of these words/)).not.toBeInTheDocument();
    });

    it('says so when no post has all the words and these have some of them', async () => {
      signedInAs(null);
      musicServer([
        found(song('9', 'String Quartet'), false, 'title', [['String Quartet', true]]),
        found(song('8', 'Sonata'), false, 'composer', [['Beethoven', true]]),
      ]);
      renderSearch('/search?tab=music&q=beethoven+string+quartet');
      const said = await screen.findByText('No post has all of these words; showing posts with some of them');
      expect(said).toHaveAttribute('role', 'status');
      expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['String Quartet', 'Sonata']);
      const snippets = [...document.querySelectorAll('[data-search-snippet]')].map((s) => s.textContent);
      expect(snippets).toEqual(['TitleString Quartet', 'ComposerBeethoven']);
    });

    it("says 'No results found.' when nothing matches, and asks nothing for text without words", async () => {
      signedInAs(null);
      const asked = musicServer([]);
      renderSearch('/search?tab=music&q=zzz');
      expect(await screen.findByText('No results found.')).toBeInTheDocument();
      expect(screen.getByText('Try other words, or another kind of post.')).toBeInTheDocument();
      const box = screen.getByPlaceholderText('Search');
      await userEvent.setup().clear(box);
      await userEvent.setup().type(box, '***');
      expect(await screen.findByText('No results found.')).toBeInTheDocument();
      expect(asked).toEqual(['?q=zzz&limit=10']);
    });
  });
});
