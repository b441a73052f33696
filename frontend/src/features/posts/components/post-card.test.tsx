import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { currentLocation, renderPage } from '../../../test/render';
import { ADA, signedInAs } from '../../../test/session';
import { postQueries } from '../api';
import { toDisplayPost } from '../transform';
import type { AudioItem, DisplayPost, PostInput } from '../types';
import { FeedList } from './feed-list';
import { PostCard } from './post-card';
import { API_URL } from '../../../lib/config';

// The player is its own feature (with its own tests); here it only has to be handed each track.
vi.mock('../../player', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  AudioTrack: ({ postId, track, index }: { postId: string; track: AudioItem; index: number }) => (
    <p data-testid="audio-track">{`${postId} #${index} ${track.title} by ${track.artist} (${track.duration})`}</p>
  ),
}));

const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';

function postJson(overrides: Partial<PostInput> = {}): PostInput {
  return {
    id: '7',
    type: 'lyrics',
    caption: 'Late night writing',
    created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    likes_count: 4,
    comments_count: 2,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana Sol', tag_id: MUSICIAN, avatar_url: null },
    lyrics: {
      title: 'Night Drive',
      artist: 'Ana Sol',
      lyrics_text: '[Verse]\nHeadlights on the water\nand the radio low',
      parts: [],
    },
    ...overrides,
  };
}

function display(json: PostInput): DisplayPost {
  const post = toDisplayPost(json);
  if (!post) throw new Error('fixture should be showable');
  return post;
}

function renderCard(json: PostInput = postJson()) {
  return renderPage(<PostCard post={display(json)} />, { route: '/home', path: '/home' });
}

describe('PostCard header', () => {
  it('shows the author, opening their profile, the role badge and how long ago', async () => {
    signedInAs(null);
    renderCard();
    const author = screen.getByRole('link', { name: /Ana Sol @ana/ });
    expect(author).toHaveAttribute('href', '/user/42');
    expect(screen.getByText('Musician')).toHaveAttribute('data-role', 'Musician');
    expect(screen.getByText('3h ago').tagName).toBe('TIME');
    expect(screen.getByText('Late night writing')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Post by Ana Sol' })).toBeInTheDocument();
    await userEvent.setup().click(author);
    expect(currentLocation()).toBe('/user/42');
  });

  it('shows Listener for an author without a known tag', () => {
    signedInAs(null);
    renderCard(postJson({ user: { id: '42', login: 'ana', name: 'Ana', tag_id: null, avatar_url: null } }));
    expect(screen.getByText('Listener')).toHaveAttribute('data-role', 'Listener');
  });

  it('leads to /profile for one’s own post', async () => {
    signedInAs(ADA);
    renderCard(postJson({ user: { id: ADA.id, login: 'ada', name: 'Ada', tag_id: null, avatar_url: null } }));
    await waitFor(() => expect(screen.getByRole('link', { name: /Ada @ada/ })).toHaveAttribute('href', '/profile'));
  });

  it("offers 'Report', 'Share' and 'Cancel' on posts of others (report-dialog.test.tsx has the rest)", async () => {
    signedInAs(ADA);
    renderCard();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Post options' }));
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Report', 'Share', 'Cancel']);
  });

  it("'Share' copies the post's address and says so", async () => {
    signedInAs(null);
    renderCard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Share' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Link copied');
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/post/7`);
  });

  it("'Copy embed code' on an audio post copies a frame of the server's player, sized for its tracks", async () => {
    signedInAs(null);
    renderCard(
      postJson({
        type: 'audio',
        lyrics: undefined,
        audio: [
          { title: 'Take "1" <a>', artist: 'Ana', cover_url: null, duration: '1:05', file_url: '/a/1.mp3' },
          { title: 'Take 2', artist: 'Ana', cover_url: null, duration: '0:40', file_url: '/a/2.mp3' },
        ],
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy embed code' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Embed code copied');
    expect(await navigator.clipboard.readText()).toBe(
      `<iframe src="${API_URL}/embed/post/7" width="560" height="220" style="border:0;max-width:100%" ` +
        'allow="autoplay" loading="lazy" title="Take &quot;1&quot; &lt;a> · Ana on SelfSound"></iframe>',
    );
  });

  it("'Share' opens the system's share sheet on a touch screen", async () => {
    signedInAs(null);
    const shared: ShareData[] = [];
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: (data: ShareData) => {
        shared.push(data);
        return Promise.resolve();
      },
    });
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({ matches: query === '(pointer: coarse)', media: query }) as MediaQueryList,
    });
    try {
      renderCard();
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Post options' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Share' }));
      await waitFor(() => expect(shared).toEqual([{ url: `${window.location.origin}/post/7` }]));
      expect(screen.queryByTestId('toast')).toBeNull();
    } finally {
      Reflect.deleteProperty(navigator, 'share');
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });
});

describe('PostCard footer', () => {
  it('shows the like and comment counts; the comment button opens the post page', async () => {
    signedInAs(null);
    renderCard();
    expect(screen.getByRole('button', { name: 'Like, 4 likes' })).toHaveAttribute('aria-pressed', 'false');
    const comments = screen.getByRole('link', { name: 'Comments, 2 comments' });
    expect(comments).toHaveAttribute('href', '/post/7');
  });

  it('shows how often a track or score was played once it has been, never for other kinds', () => {
    signedInAs(null);
    const audio = { type: 'audio' as const, lyrics: undefined, audio: [{ title: 'Take', file_url: '/a/1.mp3' }] };
    const { unmount } = renderCard(postJson({ ...audio, plays_count: 1204 }));
    expect(screen.getByText('1,204 plays')).toBeInTheDocument();
    unmount();
    const again = renderCard(postJson({ ...audio, plays_count: 1 }));
    expect(screen.getByText('1 play')).toBeInTheDocument();
    again.unmount();
    const unplayed = renderCard(postJson({ ...audio, plays_count: 0 }));
    expect(screen.queryByText(/\bplays?\b/)).toBeNull();
    unplayed.unmount();
    renderCard(postJson({ plays_count: 9 }));
    expect(screen.queryByText('9 plays')).toBeNull();
  });
});

describe('PostCard content', () => {
  it("lyrics: title, artist, the first lines and 'See more' to the post page", () => {
    signedInAs(null);
    renderCard();
    expect(screen.getByRole('heading', { name: 'Night Drive' })).toBeInTheDocument();
    expect(screen.getByText(/Headlights on the water/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See more: Night Drive' })).toHaveAttribute('href', '/post/7');
    // Its parts are labelled as on the post page, not shown as '[Verse]' (issue 34).
    expect(screen.getByRole('group', { name: 'Verse' })).toHaveTextContent(/^VerseHeadlights on the water/);
    expect(screen.queryByText(/\[Verse\]/)).toBeNull();
  });

  it('lyrics written in parts show each part under its label', () => {
    signedInAs(null);
    renderCard(
      postJson({
        lyrics: {
          title: 'Night Drive',
          artist: 'Ana Sol',
          lyrics_text: '[Verse]\nOne\n\n[Chorus]\nLa la\n\n[Verse]\nTwo',
          parts: [
            { type: 'verse', lyrics: 'One' },
            { type: 'chorus', lyrics: 'La la' },
            { type: 'verse', lyrics: 'Two' },
          ],
        },
      }),
    );
    const card = screen.getByRole('article');
    expect(within(card).getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual(['Verse 1', 'Chorus', 'Verse 2']);
    // Labels, not headings: the card's one heading is the song's title.
    expect(within(card).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Night Drive']);
  });

  it('musicxml: each file with title, composer and a Download link; Open score opens the post', () => {
    signedInAs(null);
    renderCard(
      postJson({
        type: 'musicxml',
        lyrics: undefined,
        musicxml: [
          { title: 'Fugue in G', composer: 'Bach', file_url: 'http://media.test/s/1.musicxml' },
          { title: 'Etude', composer: 'Unknown Composer', file_url: 'http://media.test/s/2.mxl' },
        ],
      }),
    );
    expect(screen.getByText('Fugue in G')).toBeInTheDocument();
    expect(screen.getByText('Bach')).toBeInTheDocument();
    // The spec's stand-in for no composer shows nothing (issue 34).
    expect(screen.queryByText('Unknown Composer')).toBeNull();
    const download = screen.getByRole('link', { name: 'Download Fugue in G' });
    expect(download).toHaveAttribute('href', 'http://media.test/s/1.musicxml');
    expect(download).toHaveAttribute('download');
    expect(screen.getByRole('link', { name: 'Open score' })).toHaveAttribute('href', '/post/7');
  });

  it('audio: hands every track to the player with its post and position', () => {
    signedInAs(null);
    renderCard(
      postJson({
        type: 'audio',
        lyrics: undefined,
        audio: [
          { title: 'Take 1', artist: 'Ana', cover_url: null, duration: '1:05', file_url: '/a/1.mp3' },
          { title: 'Take 2', artist: null, cover_url: null, duration: null, file_url: '/a/2.mp3' },
        ],
      }),
    );
    expect(screen.getAllByTestId('audio-track').map((t) => t.textContent)).toEqual([
      '7 #0 Take 1 by Ana (1:05)',
      '7 #1 Take 2 by Unknown Artist (0:00)',
    ]);
  });
});

describe('PostCard media', () => {
  const media = (items: NonNullable<PostInput['media']>) => postJson({ type: 'media', lyrics: undefined, media: items });
  const image = (id: string) => ({
    id,
    file_url: `http://media.test/o/${id}.png`,
    file_type: 'image',
    width: 1200,
    height: 800,
    poster_url: null,
    display_url: `http://media.test/d/${id}.jpg`,
  });

  it('shows the feed copy; a click opens the original full size, closed by ×', async () => {
    signedInAs(null);
    renderCard(media([image('a')]));
    const tile = screen.getByRole('button', { name: 'Open image' });
    expect(tile.querySelector('img')).toHaveAttribute('src', 'http://media.test/d/a.jpg');
    const user = userEvent.setup();
    await user.click(tile);
    const overlay = await screen.findByRole('dialog', { name: 'Full-size image' });
    expect(within(overlay).getByRole('img', { name: 'image' })).toHaveAttribute('src', 'http://media.test/o/a.png');
    // Focus moves in the overlay's effect, which may run just after the dialog is in the page.
    await waitFor(() => expect(within(overlay).getByRole('button', { name: 'Close' })).toHaveFocus());
    await user.click(within(overlay).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(tile).toHaveFocus();
  });

  it('closes the overlay on a backdrop click and on Escape, not on a click on the picture', async () => {
    signedInAs(null);
    renderCard(media([image('a')]));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open image' }));
    const overlay = await screen.findByTestId('media-overlay');
    await user.click(within(overlay).getByRole('img'));
    expect(screen.getByTestId('media-overlay')).toBeInTheDocument();
    await user.click(overlay);
    expect(screen.queryByTestId('media-overlay')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open image' }));
    await screen.findByTestId('media-overlay');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('media-overlay')).toBeNull();
  });

  it('a video shows its poster and a play button opening it with controls, playing', async () => {
    signedInAs(null);
    const started = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    renderCard(
      media([
        { id: 'v', file_url: 'http://media.test/o/v.mp4', file_type: 'video', width: null, height: null, poster_url: 'http://media.test/p/v.jpg', display_url: 'http://media.test/o/v.mp4' },
      ]),
    );
    const play = screen.getByRole('button', { name: 'Play video' });
    expect(play.querySelector('img')).toHaveAttribute('src', 'http://media.test/p/v.jpg');
    await userEvent.setup().click(play);
    const overlay = await screen.findByRole('dialog', { name: 'Full-size video' });
    const video = overlay.querySelector('video');
    expect(video).toHaveAttribute('src', 'http://media.test/o/v.mp4');
    expect(video).toHaveAttribute('controls');
    // Started by play() (not the autoplay attribute, which did not always say 'play').
    expect(started.mock.contexts).toEqual([video]);
  });

  it('a video without a poster loads only its metadata for the first frame', () => {
    signedInAs(null);
    renderCard(media([{ id: 'v', file_url: 'http://media.test/o/v.webm', file_type: 'webm' }]));
    const video = screen.getByRole('button', { name: 'Play video' }).querySelector('video');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video).toHaveAttribute('src', 'http://media.test/o/v.webm');
  });

  it('several items sit in a grid; the overlay goes through them with the arrows', async () => {
    signedInAs(null);
    renderCard(media([image('a'), image('b'), image('c')]));
    expect(screen.getAllByRole('button', { name: /^Open image \d of 3$/ })).toHaveLength(3);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open image 2 of 3' }));
    const overlay = await screen.findByRole('dialog', { name: 'Full-size image 2 of 3' });
    await user.click(within(overlay).getByRole('button', { name: 'Next' }));
    expect(within(overlay).getByRole('img')).toHaveAttribute('src', 'http://media.test/o/c.png');
    await user.keyboard('{ArrowRight}');
    expect(within(overlay).getByRole('img')).toHaveAttribute('src', 'http://media.test/o/a.png');
    await user.click(within(overlay).getByRole('button', { name: 'Previous' }));
    expect(within(overlay).getByRole('img')).toHaveAttribute('src', 'http://media.test/o/c.png');
  });
});

describe('Deleting one’s own post', () => {
  function renderOwnFeed() {
    signedInAs(ADA);
    const mine = postJson({ id: '8', user: { id: ADA.id, login: 'ada', name: 'Ada', tag_id: null, avatar_url: null } });
    let feed = [mine, postJson()];
    const deleted: string[] = [];
    server.use(
      http.get(api('/posts/feed'), () => HttpResponse.json(feed)),
      http.delete(api('/posts/:id'), ({ params }) => {
        deleted.push(String(params.id));
        feed = feed.filter((p) => p.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    function Feed() {
      return <FeedList query={useInfiniteQuery(postQueries.feed('for-you', ADA.id))} label="For you" />;
    }
    renderPage(<Feed />, { route: '/home', path: '/home' });
    return { deleted };
  }

  // The other post has a menu too (Report): these are the author's own.
  const ownOptions = async () =>
    within(await screen.findByRole('article', { name: 'Post by Ada' })).findByRole('button', { name: 'Post options' });
  const ownOptionsNow = () =>
    within(screen.getByRole('article', { name: 'Post by Ada' })).getByRole('button', { name: 'Post options' });

  it("offers 'Edit post', 'Delete post' and 'Cancel'; Cancel closes the menu", async () => {
    renderOwnFeed();
    const user = userEvent.setup();
    await user.click(await ownOptions());
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Edit post',
      'Delete post',
      'Share',
      'Cancel',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Edit post' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(ownOptionsNow()).toHaveFocus();
  });

  it('asks first, deletes with DELETE, and the post leaves the list', async () => {
    const { deleted } = renderOwnFeed();
    const user = userEvent.setup();
    await user.click(await ownOptions());
    await user.click(await screen.findByRole('menuitem', { name: 'Delete post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ownOptionsNow()).toHaveFocus();

    await user.click(ownOptionsNow());
    await user.click(await screen.findByRole('menuitem', { name: 'Delete post' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this post?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(deleted).toEqual(['8']);
    expect(screen.getByRole('article', { name: 'Post by Ana Sol' })).toBeInTheDocument();
    expect(await screen.findByTestId('toast')).toHaveTextContent('Post deleted.');
  });

  it('says so when the server refuses, and keeps the post', async () => {
    renderOwnFeed();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.delete(api('/posts/:id'), () => HttpResponse.json({ detail: 'Not allowed' }, { status: 403 })));
    const user = userEvent.setup();
    await user.click(await ownOptions());
    await user.click(await screen.findByRole('menuitem', { name: 'Delete post' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Failed to delete post: Not allowed');
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });
});

describe('Editing one’s own post', () => {
  const ADA_CARD = { id: ADA.id, login: 'ada', name: 'Ada', tag_id: null, avatar_url: null };

  function renderOwn(json: PostInput) {
    signedInAs(ADA);
    let feed = [json];
    const sent: unknown[] = [];
    server.use(
      http.get(api('/posts/feed'), () => HttpResponse.json(feed)),
      http.patch(api('/posts/:id'), async ({ request }) => {
        const edit = (await request.json()) as Record<string, unknown>;
        sent.push(edit);
        if (edit.caption === 'refuse me') return HttpResponse.json({ detail: 'Too many edits in a short time.' }, { status: 429 });
        const edited = { ...feed[0], edited_at: new Date().toISOString() } as PostInput;
        if ('caption' in edit) edited.caption = edit.caption as string | null;
        if (edit.titles && edited.audio) {
          edited.audio = edited.audio.map((t, i) => ({ ...t, title: (edit.titles as string[])[i] }));
        }
        if (edit.songTitle && edited.lyrics) edited.lyrics = { ...edited.lyrics, title: edit.songTitle as string };
        feed = [edited];
        return HttpResponse.json(edited);
      }),
    );
    function Feed() {
      return <FeedList query={useInfiniteQuery(postQueries.feed('for-you', ADA.id))} label="For you" />;
    }
    renderPage(<Feed />, { route: '/home', path: '/home' });
    return { sent };
  }

  async function openDialog() {
    const user = userEvent.setup();
    const card = await screen.findByRole('article', { name: 'Post by Ada' });
    await user.click(await within(card).findByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit post' }));
    return { user, card, dialog: await screen.findByRole('dialog', { name: 'Edit post' }) };
  }

  it('audio: each track’s title and artist and the caption; only what changed is sent; the card shows it, “edited”', async () => {
    const audio = postJson({
      id: '9',
      type: 'audio',
      lyrics: undefined,
      user: ADA_CARD,
      caption: 'demo',
      audio: [
        { title: 'One', artist: 'Ada', file_url: '/media/a.mp3', duration: '0:30', cover_url: null },
        { title: 'Two', artist: 'Ada', file_url: '/media/b.mp3', duration: '0:40', cover_url: null },
      ],
    });
    const { sent } = renderOwn(audio);
    const { user, card, dialog } = await openDialog();
    const titles = within(dialog).getAllByRole('textbox', { name: 'Title' });
    expect(titles.map((t) => (t as HTMLInputElement).value)).toEqual(['One', 'Two']);
    expect(within(dialog).getByRole('group', { name: 'Track 2' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Caption/ })).toHaveValue('demo');
    await user.clear(titles[1]!);
    await user.type(titles[1]!, 'Second');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ titles: ['One', 'Second'] }]);
    expect(await screen.findByTestId('toast')).toHaveTextContent('Post updated.');
    expect(within(card).getByText('edited')).toBeInTheDocument();
    expect(within(card).getAllByTestId('audio-track').map((t) => t.textContent)).toEqual([
      '9 #0 One by Ada (0:30)',
      '9 #1 Second by Ada (0:40)',
    ]);
  });

  it('marks a blank title where it is and moves the focus there; sends nothing', async () => {
    const { sent } = renderOwn(postJson({ id: '10', user: ADA_CARD }));
    const { user, dialog } = await openDialog();
    const title = within(dialog).getByRole('textbox', { name: 'Song title' });
    await user.clear(title);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Song title cannot be blank')).toBeInTheDocument();
    await waitFor(() => expect(title).toHaveFocus());
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
    await user.type(title, 'Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ songTitle: 'Renamed' }]);
  });

  it('an unchanged form closes without a call; a refusal is said once, the form kept', async () => {
    const { sent } = renderOwn(postJson({ id: '11', user: ADA_CARD }));
    let { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([]);

    ({ user, dialog } = await openDialog());
    const caption = within(dialog).getByRole('textbox', { name: /Caption/ });
    await user.clear(caption);
    await user.type(caption, 'refuse me');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to save post: Too many edits in a short time.');
    expect(caption).toHaveValue('refuse me');
  });
});

