import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import type { ProfileInput } from './api';
import { UserProfilePage } from './user-profile-page';

const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';

const ben: ProfileInput = {
  id: '200',
  name: 'Ben',
  login: 'ben',
  description: 'Drummer from Lyon',
  biography: 'Drummer from Lyon',
  avatar_url: null,
  tag_id: MUSICIAN,
  role: 'Musician',
  tag: { id: MUSICIAN, name: 'Musician', color: '#6D01D0' },
  stats: { posts: 3, listeners: 5, listenedTo: 7, listened_to: 7 },
};

interface Options {
  profile?: ProfileInput;
  /** Ben's posts as GET /posts/user/200 sends them. */
  posts?: unknown[];
  listened?: string[] | 'fail';
  blocked?: boolean;
  stats?: { posts: number; listeners: number; listened_to: number };
}

/** A backend with Ben's profile; returns the live state the handlers read and write. */
function backend(options: Options = {}) {
  const state = {
    listened: options.listened ?? [],
    blocked: options.blocked ?? false,
    stats: options.stats ?? { posts: 3, listeners: 5, listened_to: 7 },
    calls: [] as string[],
  };
  // Fixed paths first: '/profiles/:id' would also match '/profiles/listened'.
  server.use(
    http.get(api('/posts/user/:id'), () => HttpResponse.json(options.posts ?? [])),
    http.get(api('/profiles/listened'), () =>
      state.listened === 'fail'
        ? HttpResponse.json({ detail: 'x' }, { status: 500 })
        : HttpResponse.json(state.listened.map((id) => ({ id, name: 'X', login: 'x', avatar_url: null, tag_id: null }))),
    ),
    http.get(api('/profiles/blocks/check/:id'), () => HttpResponse.json({ is_blocked: state.blocked })),
    http.get(api('/profiles/:id/stats'), () => HttpResponse.json(state.stats)),
    http.get(api('/profiles/:id'), ({ params }) =>
      params.id === '200'
        ? HttpResponse.json(options.profile ?? ben)
        : HttpResponse.json({ detail: 'User not found' }, { status: 404 }),
    ),
  );
  return state;
}

function renderProfile(route = '/user/200', path = '/user/:userId') {
  return renderPage(<UserProfilePage />, { route, path });
}

/** The number shown for one of the counts. */
const stat = (key: 'posts' | 'listeners' | 'listenedTo') =>
  document.querySelector(`[data-stat="${key}"] dd`)?.textContent;

const listenButton = () => screen.getByRole('button', { name: /^(Listen|Unlisten|Loading\.\.\.)$/ });

describe('UserProfilePage', () => {
  it('shows the avatar, name, @login, tag, biography and counts', async () => {
    signedInAs(null);
    backend();
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ben' })).toBeInTheDocument();
    expect(screen.getByText('@ben')).toBeInTheDocument();
    expect(screen.getByText('Musician')).toHaveAttribute('data-role', 'Musician');
    expect(screen.getByText('Drummer from Lyon')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Ben' })).toBeInTheDocument();
    await waitFor(() => expect(stat('posts')).toBe('3'));
    expect(stat('listeners')).toBe('5');
    expect(stat('listenedTo')).toBe('7');
    expect(screen.getByText('Listened to')).toBeInTheDocument();
  });

  it("says 'Unknown User' and 'No biography available' when those are missing, and shows no tag badge", async () => {
    signedInAs(null);
    backend({ profile: { ...ben, name: null, description: null, biography: null, tag_id: 'nope', tag: null } });
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Unknown User' })).toBeInTheDocument();
    expect(screen.getByText('No biography available')).toBeInTheDocument();
    // 'Add tag' is the owner's invitation to choose one; here it would be a control doing nothing.
    expect(screen.queryByText('Add tag')).toBeNull();
    expect(document.querySelector('[data-role]')).toBeNull();
  });

  it("lists Ben's posts as cards", async () => {
    signedInAs(null);
    const post = {
      id: '31',
      type: 'musicxml',
      caption: null,
      created_at: '2026-11-23T13:05:00Z',
      likes_count: 0,
      comments_count: 0,
      user_liked: false,
      user: { id: '200', login: 'ben', name: 'Ben', tag_id: MUSICIAN, avatar_url: null },
      musicxml: [{ title: 'Groove Study', composer: 'Ben', file_url: 'http://media.test/s/1.musicxml' }],
    };
    backend({ posts: [post] });
    renderProfile();
    expect(await screen.findByText('Groove Study')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Post by Ben' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Ben @ben/ })).toHaveAttribute('href', '/user/200');
  });

  it('shows at most 15 characters of the name', async () => {
    signedInAs(null);
    backend({ profile: { ...ben, name: 'Benjamin Alexander' } });
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Benjamin Alexan' })).toBeInTheDocument();
  });

  it('keeps the profile counts when the stats call fails (silently)', async () => {
    signedInAs(null);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('/profiles/:id/stats'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Ben' });
    await waitFor(() => expect(console.error).toHaveBeenCalledWith('Failed to fetch user stats', expect.anything()));
    expect(stat('listeners')).toBe('5');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows 'HTTP error! status: {n}' with words and Try Again, which asks again", async () => {
    signedInAs(null);
    backend();
    let status = 503;
    server.use(
      http.get(api('/profiles/:id'), () =>
        status === 200 ? HttpResponse.json(ben) : HttpResponse.json({ detail: 'Busy' }, { status }),
      ),
    );
    renderProfile();
    expect(await screen.findByText('HTTP error! status: 503')).toBeInTheDocument();
    expect(screen.getByText(/passing problem: check your connection and try again/)).toBeInTheDocument();
    status = 200;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ben' })).toBeInTheDocument();
  });

  it('shows the not-found page for someone who is not there: what was looked for, home and search', async () => {
    signedInAs(null);
    backend();
    renderProfile('/user/999');
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile not found' })).toBeInTheDocument();
    expect(screen.getByText(/You looked for/)).toHaveTextContent('You looked for /user/999');
    expect(screen.queryByText(/HTTP error/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try Again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/home');
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search for people' }), 'aretha{Enter}');
    expect(currentLocation()).toBe('/search?tab=people&q=aretha');
  });

  it("says 'No user ID provided' (and logs it) on /another-user-rofile without an id", async () => {
    signedInAs(null);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProfile('/another-user-rofile', '/another-user-rofile');
    expect(screen.getByText('No user ID provided')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('No user ID provided');
  });

  it('reads the id from the query on /another-user-rofile, and from /profile/{id}', async () => {
    signedInAs(null);
    backend();
    const { unmount } = renderProfile('/another-user-rofile?userId=200', '/another-user-rofile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ben' })).toBeInTheDocument();
    unmount();
    renderProfile('/profile/200', '/profile/:userId');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ben' })).toBeInTheDocument();
  });

  it('sends you to your own profile when the id is yours', async () => {
    signedInAs({ ...ADA, id: '200' });
    backend();
    renderProfile();
    await waitFor(() => expect(currentLocation()).toBe('/profile'));
  });

  it('shows the posts area with its empty state', async () => {
    signedInAs(null);
    backend();
    renderProfile();
    expect(await screen.findByText('No posts yet')).toBeInTheDocument();
    expect(screen.getByText('Posts will appear below')).toBeInTheDocument();
  });
});

describe('Listen button on a profile', () => {
  it("reads 'Loading...' until the listened list is known", async () => {
    signedInAs(ADA);
    backend();
    let answer: () => void = () => {};
    server.use(
      http.get(api('/profiles/listened'), async () => {
        await new Promise<void>((r) => (answer = r));
        return HttpResponse.json([]);
      }),
    );
    renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Ben' });
    expect(listenButton()).toHaveTextContent('Loading...');
    answer();
    await waitFor(() => expect(listenButton()).toHaveTextContent('Listen'));
  });

  it('Listen → POST → Unlisten, and the counts are fetched again', async () => {
    signedInAs(ADA);
    const state = backend();
    server.use(
      http.post(api('/profiles/listening/:id'), ({ params }) => {
        state.calls.push(`POST ${String(params.id)}`);
        state.listened = ['200'];
        state.stats = { ...state.stats, listeners: 6 };
        return HttpResponse.json({ message: 'ok' });
      }),
      http.delete(api('/profiles/listening/:id'), ({ params }) => {
        state.calls.push(`DELETE ${String(params.id)}`);
        state.listened = [];
        state.stats = { ...state.stats, listeners: 5 };
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    renderProfile();
    const user = userEvent.setup();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await user.click(listenButton());
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Unlisten$/));
    await waitFor(() => expect(stat('listeners')).toBe('6'));
    await user.click(listenButton());
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await waitFor(() => expect(stat('listeners')).toBe('5'));
    expect(state.calls).toEqual(['POST 200', 'DELETE 200']);
  });

  it("reads 'Loading...' while the call runs", async () => {
    signedInAs(ADA);
    const state = backend();
    let finish: () => void = () => {};
    server.use(
      http.post(api('/profiles/listening/:id'), async () => {
        await new Promise<void>((r) => (finish = r));
        state.listened = ['200'];
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    await waitFor(() => expect(listenButton()).toHaveTextContent('Loading...'));
    finish();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Unlisten$/));
  });

  it("shows the block text in the page on a 403, and the button says 'Unavailable'", async () => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(
      http.post(api('/profiles/listening/:id'), () =>
        HttpResponse.json({ detail: 'Cannot listen to this user because either you have blocked them or they have blocked you.' }, { status: 403 }),
      ),
    );
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cannot listen to this user because either you have blocked them or they have blocked you.',
    );
    expect(screen.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('says so on the page for other failures', async () => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(http.post(api('/profiles/listening/:id'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update listening status. Please try again.');
    expect(alert).not.toHaveBeenCalled();
  });

  it('goes to /sign-in on a 401', async () => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.post(api('/profiles/listening/:id'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })),
    );
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
  });

  it('sends a guest to /sign-in without calling', async () => {
    signedInAs(null);
    backend();
    const posted = vi.fn();
    server.use(http.post(api('/profiles/listening/:id'), () => (posted(), HttpResponse.json({}))));
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    expect(currentLocation()).toBe('/sign-in');
    expect(posted).not.toHaveBeenCalled();
  });

  it('treats a failed listened list as a guest', async () => {
    signedInAs(ADA);
    backend({ listened: 'fail' });
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    await userEvent.setup().click(listenButton());
    expect(currentLocation()).toBe('/sign-in');
  });

  it('asks the server who is signed in before listening, and goes to /sign-in if nobody is', async () => {
    const session = signedInAs(ADA);
    backend();
    const posted = vi.fn();
    server.use(http.post(api('/profiles/listening/:id'), () => (posted(), HttpResponse.json({}))));
    renderProfile();
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
    const before = session.calls();
    signedInAs(null);
    await userEvent.setup().click(listenButton());
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(posted).not.toHaveBeenCalled();
    expect(before).toBeGreaterThan(0);
  });
});

describe('A blocked pair on a profile', () => {
  it("says 'Blocked' instead of Listen when I blocked them, and never calls", async () => {
    signedInAs(ADA);
    backend({ blocked: true });
    const posted = vi.fn();
    server.use(http.post(api('/profiles/listening/:id'), () => (posted(), HttpResponse.json({}))));
    renderProfile();
    const button = await screen.findByRole('button', { name: 'Blocked' });
    expect(button).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Listen$/ })).toBeNull();
    expect(posted).not.toHaveBeenCalled();
  });

  it('offers Listen again once unblocked from the menu', async () => {
    signedInAs(ADA);
    const state = backend({ blocked: true });
    server.use(
      http.delete(api('/profiles/blocks/:id'), () => {
        state.blocked = false;
        return HttpResponse.json({ message: 'User unblocked' });
      }),
    );
    renderProfile();
    await screen.findByRole('button', { name: 'Blocked' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'More options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Unblock user' }));
    await waitFor(() => expect(listenButton()).toHaveTextContent(/^Listen$/));
  });
});

describe('Block menu', () => {
  async function openMenu() {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More options' }));
    return { user, menu: screen.getByRole('menu') };
  }

  /** Blocking asks first: the dialog names the person; its Block button goes ahead. */
  async function confirmBlock(user: ReturnType<typeof userEvent.setup>) {
    const dialog = await screen.findByRole('dialog', { name: 'Block Ben (@ben)?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
  }

  it("offers 'Block user' and 'Cancel'; Cancel closes it", async () => {
    signedInAs(ADA);
    backend();
    renderProfile();
    const { user, menu } = await openMenu();
    expect(await within(menu).findByRole('menuitem', { name: 'Block user' })).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Cancel' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('moves between the items with the arrow keys and closes on Escape', async () => {
    signedInAs(ADA);
    backend();
    renderProfile();
    const { user, menu } = await openMenu();
    const block = await within(menu).findByRole('menuitem', { name: 'Block user' });
    expect(block).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(block).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'More options' })).toHaveFocus();
  });

  it("reads 'Loading...' until the status is known, then 'Unblock user' when blocked", async () => {
    signedInAs(ADA);
    backend({ blocked: true });
    let answer: () => void = () => {};
    server.use(
      http.get(api('/profiles/blocks/check/:id'), async () => {
        await new Promise<void>((r) => (answer = r));
        return HttpResponse.json({ is_blocked: true });
      }),
    );
    renderProfile();
    const { menu } = await openMenu();
    expect(within(menu).getByRole('menuitem', { name: 'Loading...' })).toBeInTheDocument();
    answer();
    expect(await within(menu).findByRole('menuitem', { name: 'Unblock user' })).toBeInTheDocument();
  });

  it('treats a failed status check as not blocked', async () => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('/profiles/blocks/check/:id'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    renderProfile();
    const { menu } = await openMenu();
    expect(await within(menu).findByRole('menuitem', { name: 'Block user' })).toBeInTheDocument();
  });

  it("blocks with POST ('Processing...' meanwhile) and then goes to /", async () => {
    signedInAs(ADA);
    backend();
    let finish: () => void = () => {};
    const calls: string[] = [];
    server.use(
      http.post(api('/profiles/blocks/:id'), async ({ params }) => {
        calls.push(`POST ${String(params.id)}`);
        await new Promise<void>((r) => (finish = r));
        return HttpResponse.json({ message: 'User blocked' });
      }),
    );
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Block user' }));
    await confirmBlock(user);
    expect(await within(menu).findByRole('menuitem', { name: 'Processing...' })).toBeInTheDocument();
    finish();
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(calls).toEqual(['POST 200']);
  });

  it('asks first: Cancel in the confirmation blocks nobody', async () => {
    signedInAs(ADA);
    backend();
    const posted = vi.fn();
    server.use(http.post(api('/profiles/blocks/:id'), () => (posted(), HttpResponse.json({}))));
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Block user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block Ben (@ben)?' });
    expect(dialog).toHaveAccessibleDescription(/Ben \(@ben\) will no longer be able to listen to you/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted).not.toHaveBeenCalled();
    expect(currentLocation()).toBe('/user/200');
  });

  it('after blocking, says who was blocked, with an Undo that unblocks', async () => {
    signedInAs(ADA);
    backend();
    const calls: string[] = [];
    server.use(
      http.post(api('/profiles/blocks/:id'), ({ params }) => {
        calls.push(`POST ${String(params.id)}`);
        return HttpResponse.json({ message: 'User blocked' });
      }),
      http.delete(api('/profiles/blocks/:id'), ({ params }) => {
        calls.push(`DELETE ${String(params.id)}`);
        return HttpResponse.json({ message: 'User unblocked' });
      }),
    );
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Block user' }));
    await confirmBlock(user);
    await waitFor(() => expect(currentLocation()).toBe('/'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('You blocked Ben (@ben).');
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getByTestId('toast')).toHaveTextContent('You unblocked Ben (@ben).'));
    expect(calls).toEqual(['POST 200', 'DELETE 200']);
  });

  it('unblocks with DELETE and stays', async () => {
    signedInAs(ADA);
    const state = backend({ blocked: true });
    server.use(
      http.delete(api('/profiles/blocks/:id'), ({ params }) => {
        state.calls.push(`DELETE ${String(params.id)}`);
        state.blocked = false;
        return HttpResponse.json({ message: 'User unblocked' });
      }),
    );
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Unblock user' }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(state.calls).toEqual(['DELETE 200']);
    expect(currentLocation()).toBe('/user/200');
    await user.click(screen.getByRole('button', { name: 'More options' }));
    expect(await screen.findByRole('menuitem', { name: 'Block user' })).toBeInTheDocument();
  });

  it.each([
    ['the server detail', () => HttpResponse.json({ detail: 'Nope' }, { status: 400 }), 'Error: Nope'],
    ['a bare failure', () => new HttpResponse(null, { status: 500 }), 'Failed to update block status'],
    ['an unreachable server', () => HttpResponse.error(), 'Network error: Could not connect to server. Please check your connection.'],
    ['a non-JSON answer', () => HttpResponse.text('OK'), 'Server response error: Invalid response format.'],
  ])('shows %s in the page', async (_, answer, text) => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(http.post(api('/profiles/blocks/:id'), answer));
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Block user' }));
    await confirmBlock(user);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(text));
    expect(alert).not.toHaveBeenCalled();
    expect(currentLocation()).toBe('/user/200');
  });

  it('goes to /sign-in on a 401', async () => {
    signedInAs(ADA);
    backend();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(http.post(api('/profiles/blocks/:id'), () => HttpResponse.json({ detail: 'x' }, { status: 401 })));
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(await within(menu).findByRole('menuitem', { name: 'Block user' }));
    await confirmBlock(user);
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(alert).not.toHaveBeenCalled();
  });

  it('sends a guest to /sign-in', async () => {
    signedInAs(null);
    backend();
    const posted = vi.fn();
    server.use(http.post(api('/profiles/blocks/:id'), () => (posted(), HttpResponse.json({}))));
    renderProfile();
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Block user' }));
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(posted).not.toHaveBeenCalled();
  });
});

describe("Ben's listeners and the people he listens to", () => {
  const person = (id: string, login: string, name = login) => ({ id, login, name, avatar_url: '/default.png', tag_id: null, role: null });

  it('open from the counts, page on with the marker the server gave, and show other servers by handle', async () => {
    signedInAs(null);
    backend();
    const asked: string[] = [];
    server.use(
      http.get(api('/profiles/:id/listeners'), ({ request, params }) => {
        const after = new URL(request.url).searchParams.get('after');
        asked.push(`${String(params.id)} ${after ?? '-'}`);
        return after === null
          ? HttpResponse.json({ people: [person('301', 'bob@elsewhere.example', 'Bob Elsewhere'), person('302', 'cleo', 'Cleo')], next: '99-302' })
          : HttpResponse.json({ people: [person('303', 'dan', 'Dan')], next: null });
      }),
    );
    const user = userEvent.setup();
    renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Listeners: 5, show who' }));
    const dialog = await screen.findByRole('dialog', { name: 'Listeners' });
    const list = await within(dialog).findByRole('list', { name: 'Listeners of Ben' });
    expect(within(list).getByText('@bob@elsewhere.example')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: /Cleo/ })).toHaveAttribute('href', '/user/302');
    await user.click(within(dialog).getByRole('button', { name: 'Load More' }));
    expect(await within(list).findByText('Dan')).toBeInTheDocument();
    expect(asked).toEqual(['200 -', '200 99-302']);
    expect(within(dialog).queryByRole('button', { name: 'Load More' })).toBeNull();
    // Opening a person closes the dialog and goes to their profile.
    await user.click(within(list).getByRole('link', { name: /Dan/ }));
    await waitFor(() => expect(currentLocation()).toBe('/user/303'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('say so when there is nobody, and offer to try again when the list fails', async () => {
    signedInAs(null);
    backend();
    let fail = true;
    server.use(
      http.get(api('/profiles/:id/listened-to'), () =>
        fail ? HttpResponse.json({ detail: 'x' }, { status: 500 }) : HttpResponse.json({ people: [], next: null }),
      ),
    );
    const user = userEvent.setup();
    renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Listened to: 7, show who' }));
    const dialog = await screen.findByRole('dialog', { name: 'Listened to' });
    expect(await within(dialog).findByText('This list could not be loaded. Check your connection and try again.')).toBeInTheDocument();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Not listening to anyone yet.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('A person of another server', () => {
  it('shows where they live in place of Listen, and can still be blocked', async () => {
    signedInAs(ADA);
    backend({ profile: { ...ben, login: 'bob@elsewhere.example', name: 'Bob Elsewhere' } });
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob Elsewhere' })).toBeInTheDocument();
    const where = screen.getByText('On elsewhere.example');
    expect(where).toHaveAttribute('title', expect.stringContaining('not possible yet'));
    expect(screen.queryByRole('button', { name: /^(Listen|Unlisten)$/ })).toBeNull();
    expect(screen.getByRole('button', { name: /more|options|menu/i })).toBeInTheDocument();
  });
});
