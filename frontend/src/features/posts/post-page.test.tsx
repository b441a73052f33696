import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useNavigate } from 'react-router';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { PostPage } from './post-page';
import type { PostInput } from './types';

// Scores are drawn by OpenSheetMusicDisplay, which cannot lay out music in jsdom; the stand-in
// only shows that the page hands each file to ScoreView (its own tests cover the rest).
vi.mock('opensheetmusicdisplay', async () => ({
  OpenSheetMusicDisplay: (await import('../../test/fake-osmd')).FakeOsmd,
  // Only used for a transposed score, which these tests do not draw.
  TransposeCalculator: class {},
}));

const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';

function post(extra: Partial<PostInput>): PostInput {
  return {
    id: '42',
    type: 'lyrics',
    caption: null,
    created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    likes_count: 4,
    comments_count: 2,
    user_liked: false,
    user: { id: '200', login: 'ben', name: 'Ben', tag_id: MUSICIAN, avatar_url: null },
    ...extra,
  };
}

const lyricsPost = post({
  lyrics: {
    title: 'Night Drive',
    artist: 'Ben & Co',
    lyrics_text: '[Verse]\nLights on the road',
    parts: [
      { type: 'verse', lyrics: 'Lights on the road' },
      { type: 'chorus', lyrics: 'Drive, drive\nall night' },
      { type: 'verse', lyrics: 'Morning comes' },
    ],
  },
});

const XML = '<?xml version="1.0"?><score-partwise version="4.0"><part-list/></score-partwise>';

function backend(answer: PostInput | { status: number }, comments: unknown[] = []) {
  const calls = { post: 0 };
  server.use(
    http.get(api('/posts/:id'), () => {
      calls.post += 1;
      return 'status' in answer ? HttpResponse.json({ detail: 'x' }, { status: answer.status }) : HttpResponse.json(answer);
    }),
    http.get(api('/posts/:id/comments'), () => HttpResponse.json(comments)),
    http.get(new URL('/media/:file', document.baseURI).href, () =>
      new HttpResponse(XML, { headers: { 'Content-Type': 'application/xml' } }),
    ),
  );
  return calls;
}

function renderPost(route: string | { pathname: string; key?: string } = '/post/42') {
  return renderPage(<PostPage />, { route, path: '/post/:postId', routes: { '/home': <p>Home page</p> } });
}

describe('PostPage', () => {
  it('shows a lyrics post in full: author, time, title, artist, the parts, likes and comments', async () => {
    signedInAs(null);
    backend(lyricsPost, [
      {
        id: '1',
        content: 'Love it',
        created_at: new Date().toISOString(),
        author_id: '300',
        author_name: 'Cleo',
        author_login: 'cleo',
        author_avatar_url: null,
        author_role: null,
        mentions: [],
      },
    ]);
    renderPost();

    const article = await screen.findByRole('article', { name: 'Post by Ben' });
    expect(within(article).getByRole('link', { name: /Ben.*@ben/ })).toHaveAttribute('href', '/user/200');
    expect(within(article).getByText('Musician')).toBeInTheDocument();
    expect(within(article).getByText('3h ago')).toBeInTheDocument();
    expect(within(article).getByRole('heading', { name: 'Night Drive' })).toBeInTheDocument();
    expect(within(article).getByText('Ben & Co')).toBeInTheDocument();
    expect(within(article).getByRole('heading', { name: 'Verse 1' })).toBeInTheDocument();
    expect(within(article).getByRole('heading', { name: 'Chorus' })).toBeInTheDocument();
    expect(within(article).getByRole('heading', { name: 'Verse 2' })).toBeInTheDocument();
    expect(within(article).getByText(/Drive, drive\s+all night/)).toBeInTheDocument();
    expect(within(article).getByRole('button', { name: 'Like, 4 likes' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(article).getByRole('button', { name: 'Comments, 2 comments' })).toBeInTheDocument();

    expect(screen.getByRole('heading', { name: /^Comments/ })).toBeInTheDocument();
    expect(await screen.findByText('Love it')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to comment' })).toBeInTheDocument();
  });

  it("uses 'Untitled', 'Unknown Artist' and 'No lyrics available' when the song has none", async () => {
    signedInAs(null);
    backend(post({ lyrics: { title: ' ', artist: null, lyrics_text: '', parts: [] } }));
    renderPost();
    expect(await screen.findByRole('heading', { name: 'Untitled' })).toBeInTheDocument();
    expect(screen.getByText('Unknown Artist')).toBeInTheDocument();
    expect(screen.getByText('No lyrics available')).toBeInTheDocument();
    expect(await screen.findByText('No comments yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to comment!')).toBeInTheDocument();
  });

  it('shows each score of a MusicXML post with its title, composer, drawing and a Download link', async () => {
    signedInAs(null);
    backend(
      post({
        type: 'musicxml',
        musicxml: [
          { title: 'Etude', composer: 'Chopin', file_url: '/media/etude.musicxml' },
          { title: null, composer: null, file_url: '/media/b.musicxml' },
        ],
      }),
    );
    renderPost();
    const etude = await screen.findByRole('region', { name: 'Etude' });
    expect(within(etude).getByRole('heading', { name: 'Etude' })).toBeInTheDocument();
    expect(within(etude).getByText('Chopin')).toBeInTheDocument();
    const download = within(etude).getByRole('link', { name: 'Download Etude' });
    expect(download).toHaveAttribute('href', '/media/etude.musicxml');
    // Saved under its title, not the stored file's name.
    expect(download).toHaveAttribute('download', 'Etude.musicxml');
    await waitFor(() => expect(within(etude).getByRole('figure', { name: 'Score: Etude' })).toHaveAttribute('data-status', 'ready'));
    const other = screen.getByRole('region', { name: 'Untitled' });
    expect(within(other).queryByText('Unknown Composer')).toBeNull();
    expect(screen.getByRole('button', { name: 'Like, 4 likes' })).toBeInTheDocument();
  });

  it('offers each track of an audio post for download, under its title', async () => {
    signedInAs(null);
    backend(
      post({
        type: 'audio',
        audio: [
          { title: 'Morning Take', artist: 'Ben', file_url: '/media/posts/7/take-1.mp3' },
          { title: 'Night: Take 2', artist: 'Ben', file_url: '/media/posts/7/take-2.ogg' },
        ],
      }),
    );
    renderPost();
    const first = await screen.findByRole('link', { name: 'Download Morning Take' });
    expect(first).toHaveAttribute('href', '/media/posts/7/take-1.mp3');
    expect(first).toHaveAttribute('download', 'Morning Take.mp3');
    expect(screen.getByRole('link', { name: 'Download Night: Take 2' })).toHaveAttribute('download', 'Night Take 2.ogg');
  });

  it('shows other kinds of post as their card', async () => {
    signedInAs(null);
    backend(post({ type: 'media', caption: 'Studio day', media: [{ id: 'm1', file_url: '/media/a.jpg', file_type: 'image' }] }));
    renderPost();
    const card = await screen.findByRole('article', { name: 'Post by Ben' });
    expect(card).toHaveAttribute('data-post-type', 'media');
    expect(within(card).getByText('Studio day')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Like, 4 likes' })).toBeInTheDocument();
    // The comments are right below: the card's own comment link is left out, the count is in the heading.
    expect(within(card).queryByRole('link', { name: /^Comments/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^Comments/ })).toHaveTextContent('2');
  });

  it("says 'Post not found' for a 404", async () => {
    signedInAs(null);
    backend({ status: 404 });
    renderPost();
    // The app's not-found page: what was looked for, a way home, and a search (issue 34).
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' })).toBeInTheDocument();
    expect(screen.getByText(/You looked for/)).toHaveTextContent('You looked for /post/42');
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/home');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Comments/ })).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Post not found · SelfSound'));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search for music' }), 'harbour lights{Enter}');
    expect(currentLocation()).toBe('/search?tab=music&q=harbour%20lights');
  });

  it("says 'HTTP error! status: {code}' for another failure, and tries again", async () => {
    signedInAs(null);
    backend({ status: 500 });
    renderPost();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('HTTP error! status: 500');
    expect(alert).toHaveTextContent('This may be a passing problem: check your connection and try again in a moment.');
    backend(lyricsPost);
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Night Drive' })).toBeInTheDocument();
  });

  it('asks for the post as the signed-in viewer, once', async () => {
    signedInAs(ADA);
    const calls = backend(lyricsPost);
    renderPost();
    expect(await screen.findByRole('heading', { name: 'Night Drive' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Write a comment' })).toBeInTheDocument();
    expect(calls.post).toBe(1);
  });

  it('counts a comment published here on the post at once', async () => {
    signedInAs(ADA);
    backend(lyricsPost);
    server.use(
      http.post(api('/posts/:id/comments'), () =>
        HttpResponse.json(
          { comment: { id: '9', content: 'Lovely', created_at: new Date().toISOString(), author_id: ADA.id, author_login: ADA.login } },
          { status: 201 },
        ),
      ),
    );
    renderPost();
    const article = await screen.findByRole('article', { name: 'Post by Ben' });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'Lovely{Enter}');
    expect(await within(article).findByRole('button', { name: 'Comments, 3 comments' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^Comments/ })).toHaveTextContent('3');
  });

  it("says 'No post ID provided' without one", async () => {
    signedInAs(null);
    renderPage(<PostPage />, { route: '/post/', path: '*' });
    expect(await screen.findByRole('alert')).toHaveTextContent('No post ID provided');
  });

  it('goes home with Back when it was the first page opened', async () => {
    signedInAs(null);
    backend(lyricsPost);
    renderPost();
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(currentLocation()).toBe('/home');
  });

  it('goes back through history when the visitor came from another page', async () => {
    signedInAs(null);
    backend(lyricsPost);
    renderPage(<PostPage />, {
      route: '/search',
      path: '/post/:postId',
      routes: { '/search': <StartPage /> },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Open post' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(currentLocation()).toBe('/search');
  });
});

function StartPage() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate('/post/42')}>
      Open post
    </button>
  );
}
