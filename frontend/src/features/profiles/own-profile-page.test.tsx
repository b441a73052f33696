import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { defaultAvatar } from '../../components/avatar';
import { clearTokens } from '../../lib/token-storage';
import type { ProfileInput, ProfileUpdate } from './api';
import { OwnProfilePage } from './own-profile-page';

const LISTENER = '146fb41a-2f3e-48c7-bef9-01de0279dfd7';
const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';
const LEARNER = '5ee121a6-b467-4ead-b3f7-00e1ce6097d5';

const adaProfile: ProfileInput = {
  id: ADA.id,
  name: 'Ada Lovelace-Byron',
  login: 'ada',
  description: 'Composer of engines',
  biography: 'Composer of engines',
  avatar_url: 'http://media.test/avatars/old.png',
  tag_id: null,
  role: null,
  tag: null,
  email: 'ada@example.com',
  stats: { posts: 0, listeners: 2, listenedTo: 4, listened_to: 4 },
};

/** A post of Ada's as GET /posts/user/{id} sends it. */
function adaPost(id: string, title: string) {
  return {
    id,
    type: 'lyrics',
    caption: 'New words',
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 3,
    comments_count: 1,
    user_liked: false,
    user: { id: ADA.id, login: 'ada', name: 'Ada', tag_id: null, avatar_url: null },
    lyrics: { title, artist: 'Ada', lyrics_text: 'la la', parts: [] },
  };
}

/** A backend holding Ada's profile (and `posts`); PATCHes change it. Returns what was sent. */
function backend(initial: ProfileInput = adaProfile, posts: unknown[] = []) {
  let profile = { ...initial };
  const sent: { patches: ProfileUpdate[]; profileGets: number; setAvatar: (url: string) => void } = {
    patches: [],
    profileGets: 0,
    setAvatar: (url) => (profile = { ...profile, avatar_url: url }),
  };
  server.use(
    http.get(api('/posts/user/:id'), ({ params }) => HttpResponse.json(params.id === ADA.id ? posts : [])),
    http.get(api('/profile/me/plays'), () => HttpResponse.json([])),
    http.get(api('/profile/me/profile'), () => {
      sent.profileGets += 1;
      return HttpResponse.json(profile);
    }),
    http.patch(api('/profile/me'), async ({ request }) => {
      const patch = (await request.json()) as ProfileUpdate;
      sent.patches.push(patch);
      profile = {
        ...profile,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(typeof patch.login === 'string' ? { login: patch.login.toLowerCase() } : {}),
        ...(patch.description !== undefined ? { description: patch.description, biography: patch.description } : {}),
        ...(patch.tag_id !== undefined ? { tag_id: patch.tag_id } : {}),
      };
      return HttpResponse.json(profile);
    }),
  );
  return sent;
}

function renderOwn() {
  signedInAs(ADA);
  return renderPage(<OwnProfilePage />, { route: '/profile', path: '/profile' });
}

async function openEditor() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Edit profile' }) };
}

function pngFile(name = 'me.png', type = 'image/png', size?: number) {
  const file = new File(['png'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

beforeEach(() => {
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${++n}`);
  URL.revokeObjectURL = vi.fn();
});

describe('OwnProfilePage', () => {
  it('shows the header: avatar, name cut to 15, @login, Add tag, biography, counts', async () => {
    backend();
    renderOwn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace-By' })).toBeInTheDocument();
    expect(screen.getByText('@ada')).toBeInTheDocument();
    expect(screen.getByText('Add tag')).toBeInTheDocument();
    expect(screen.getByText('Composer of engines')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Ada Lovelace-By' })).toHaveAttribute('src', 'http://media.test/avatars/old.png');
    expect(document.querySelector('[data-stat="listeners"] dd')).toHaveTextContent('2');
    expect(document.querySelector('[data-stat="listenedTo"] dd')).toHaveTextContent('4');
    expect(await screen.findByText('No posts yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to share something!')).toBeInTheDocument();
  });

  it('lists her posts as cards, leading to her own profile', async () => {
    backend(adaProfile, [adaPost('9', 'Engine Song'), adaPost('8', 'Loom Song')]);
    renderOwn();
    expect(await screen.findByRole('heading', { name: 'Engine Song' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getAllByRole('link', { name: /^Ada @ada/ })[0]).toHaveAttribute('href', '/profile');
    expect(screen.queryByText('No posts yet')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('shows the tag badge when a tag is set', async () => {
    backend({ ...adaProfile, tag_id: LEARNER });
    renderOwn();
    expect(await screen.findByText('Learner')).toHaveAttribute('data-role', 'Learner');
    expect(screen.queryByText('Add tag')).toBeNull();
  });

  it('offers Try Again when the profile cannot be loaded', async () => {
    backend();
    server.use(http.get(api('/profile/me/profile'), () => HttpResponse.json({ detail: 'Boom' }, { status: 500 }), { once: true }));
    renderOwn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Boom');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace-By' })).toBeInTheDocument();
  });
});

describe('Edit profile', () => {
  it('opens with the current values', async () => {
    backend({ ...adaProfile, tag_id: MUSICIAN });
    renderOwn();
    const { dialog } = await openEditor();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Ada Lovelace-By');
    expect(within(dialog).getByLabelText('Login')).toHaveValue('ada');
    expect(within(dialog).getByLabelText('Biography')).toHaveValue('Composer of engines');
    expect(within(dialog).getByRole('button', { name: 'Musician' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('cuts the name at 15, the login at 20 without @, spaces and dots, the biography at 130', async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Augusta Ada King Countess');
    expect(name).toHaveValue('Augusta Ada Kin');
    const login = within(dialog).getByLabelText('Login');
    await user.clear(login);
    await user.type(login, '@ada.love lace_the_first_of_many');
    expect(login).toHaveValue('adalovelace_the_firs');
    const bio = within(dialog).getByLabelText('Biography');
    fireEvent.change(bio, { target: { value: 'x'.repeat(140) } });
    expect(bio).toHaveValue('x'.repeat(130));
    expect(within(dialog).getByText('130/130')).toBeInTheDocument();
  });

  it('toggles the tag: a click selects, a click on the selected one returns to Add tag', async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    const preview = within(dialog).getByTestId('tag-preview');
    expect(preview).toHaveTextContent('Add tag');
    await user.click(within(dialog).getByRole('button', { name: 'Listener' }));
    expect(preview).toHaveTextContent('Listener');
    await user.click(within(dialog).getByRole('button', { name: 'Learner' }));
    expect(preview).toHaveTextContent('Learner');
    expect(within(dialog).getByRole('button', { name: 'Listener' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'Learner' }));
    expect(preview).toHaveTextContent('Add tag');
    expect(within(dialog).getByRole('button', { name: 'Learner' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('refuses an empty name or login without calling the server', async () => {
    const sent = backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.clear(within(dialog).getByLabelText('Login'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name cannot be empty')).toBeInTheDocument();
    expect(within(dialog).getByText('Login cannot be empty')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Login'), 'ada/x');
    expect(within(dialog).getByText('Login can only contain letters, numbers, underscores and hyphens')).toBeInTheDocument();
    expect(sent.patches).toEqual([]);
  });

  it("saves ('Saving...'), sends every field, fetches the profile again and closes", async () => {
    const sent = backend({ ...adaProfile, tag_id: LISTENER });
    let release: () => void = () => {};
    renderOwn();
    const { user, dialog } = await openEditor();
    server.use(
      http.patch(api('/profile/me'), async () => {
        await new Promise<void>((r) => (release = r));
        return undefined;
      }, { once: true }),
    );
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, ' Ada K ');
    await user.clear(within(dialog).getByLabelText('Login'));
    await user.type(within(dialog).getByLabelText('Login'), 'ada_k');
    await user.clear(within(dialog).getByLabelText('Biography'));
    await user.type(within(dialog).getByLabelText('Biography'), '  ');
    await user.click(within(dialog).getByRole('button', { name: 'Listener' }));
    await user.click(within(dialog).getByRole('button', { name: 'Musician' }));
    const getsBefore = sent.profileGets;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.patches).toEqual([{ name: 'Ada K', login: 'ada_k', description: null, tag_id: MUSICIAN }]);
    expect(sent.profileGets).toBeGreaterThan(getsBefore);
    expect(screen.getByRole('heading', { level: 1, name: 'Ada K' })).toBeInTheDocument();
    expect(screen.getByText('@ada_k')).toBeInTheDocument();
    expect(screen.getByText('Musician')).toBeInTheDocument();
  });

  it('sends tag_id null when the tag was cleared', async () => {
    const sent = backend({ ...adaProfile, tag_id: LEARNER });
    renderOwn();
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('button', { name: 'Learner' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.patches[0]).toMatchObject({ tag_id: null, description: 'Composer of engines' });
    expect(await screen.findByText('Add tag')).toBeInTheDocument();
  });

  it.each([
    [409, 'This login is already taken', 'Login'],
    [400, 'Name must be 15 characters or less', 'Name'],
  ])('puts a %i "%s" under its field', async (status, detail, field) => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    server.use(http.patch(api('/profile/me'), () => HttpResponse.json({ detail }, { status })));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(detail)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(field)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("refuses a reserved login beside the field with the server's words, without calling the server", async () => {
    const sent = backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    const login = within(dialog).getByLabelText('Login');
    await user.clear(login);
    await user.type(login, 'Ad_Min');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('This login is reserved. Please choose another one.')).toBeInTheDocument();
    expect(login).toHaveAttribute('aria-invalid', 'true');
    expect(sent.patches).toEqual([]);
    await user.clear(login);
    await user.type(login, 'admiral');
    expect(within(dialog).queryByText('This login is reserved. Please choose another one.')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.patches).toMatchObject([{ login: 'admiral' }]);
  });

  it('saves a reserved login the person already has, as the server keeps it', async () => {
    const sent = backend({ ...adaProfile, login: 'support' });
    renderOwn();
    const { user, dialog } = await openEditor();
    await user.type(within(dialog).getByLabelText('Name'), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.patches).toMatchObject([{ login: 'support' }]);
  });

  it("shows the server's reserved-login 400 beside the field when the web app's list is behind", async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    const detail = 'This login is reserved. Please choose another one.';
    server.use(http.patch(api('/profile/me'), () => HttpResponse.json({ detail }, { status: 400 }), { once: true }));
    const login = within(dialog).getByLabelText('Login');
    await user.clear(login);
    await user.type(login, 'newly_reserved');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(detail)).toBeInTheDocument();
    expect(login).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("shows other refusals above the form, 'Profile update failed' without words", async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    server.use(http.patch(api('/profile/me'), () => HttpResponse.json({ detail: 'Unknown tag' }, { status: 400 }), { once: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unknown tag');
    server.use(http.patch(api('/profile/me'), () => new HttpResponse(null, { status: 502 }), { once: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Profile update failed'));
  });

  it("says 'Authentication required. Please sign in.' without a token", async () => {
    const sent = backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    clearTokens();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Authentication required. Please sign in.');
    expect(sent.patches).toEqual([]);
  });

  it("warns 'Failed to fetch updated profile' when the re-fetch fails, showing the saved profile", async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    server.use(http.get(api('/profile/me/profile'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Ada New');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch updated profile');
    expect(screen.getByRole('heading', { level: 1, name: 'Ada New' })).toBeInTheDocument();
  });

  it('closes with Cancel without saving', async () => {
    const sent = backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    await user.type(within(dialog).getByLabelText('Name'), 'zzz');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.patches).toEqual([]);
  });
});

describe('Plays of your tracks', () => {
  it('lists each track and score with its plays, and pages by post', async () => {
    backend();
    const asked: string[] = [];
    const track = (post: number, kind: string, n: number, title: string, plays: number) => ({
      post_id: String(post),
      type: kind,
      track: n,
      title,
      plays_count: plays,
    });
    server.use(
      http.get(api('/profile/me/plays'), ({ request }) => {
        const before = new URL(request.url).searchParams.get('before');
        asked.push(before ?? '');
        if (before) return HttpResponse.json([track(1, 'musicxml', 0, 'Étude', 1)]);
        // A full page: ten posts, the first of two tracks.
        return HttpResponse.json([
          track(20, 'audio', 0, 'Intro', 1204),
          track(20, 'audio', 1, 'Solo', 3),
          ...Array.from({ length: 9 }, (_, i) => track(19 - i, 'audio', 0, `Song ${i}`, 0)),
        ]);
      }),
    );
    renderOwn();
    const section = await screen.findByRole('region', { name: 'Plays of your tracks' });
    const rows = within(section).getAllByRole('listitem');
    expect(rows).toHaveLength(11);
    expect(rows[0]).toHaveTextContent('IntroTrack 11,204 plays');
    expect(rows[1]).toHaveTextContent('SoloTrack 23 plays');
    expect(rows[2]).toHaveTextContent('Song 0Track0 plays');
    expect(within(rows[0]!).getByRole('link', { name: 'Intro' })).toHaveAttribute('href', '/post/20');
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Load More' }));
    expect(await within(section).findByText('Étude')).toBeInTheDocument();
    expect(within(section).getByText('1 play')).toBeInTheDocument();
    expect(asked).toEqual(['', '11']);
    expect(within(section).queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('shows nothing to a person without tracks', async () => {
    backend();
    renderOwn();
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Plays of your tracks')).toBeNull());
  });
});

describe('Avatar', () => {
  it('shows the chosen picture at once, uploads it at once, and keeps the new one', async () => {
    const sent = backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    let release: () => void = () => {};
    const uploads: string[] = [];
    server.use(
      http.patch(api('/profile/me/avatar'), async ({ request }) => {
        uploads.push(request.headers.get('content-type') ?? '');
        await new Promise<void>((r) => (release = r));
        sent.setAvatar('http://media.test/avatars/new.png');
        return HttpResponse.json({ avatar_url: 'http://media.test/avatars/new.png' });
      }),
    );
    await user.upload(within(dialog).getByLabelText('Change avatar'), pngFile());
    const preview = within(dialog).getByRole('img', { name: "Ada Lovelace-Byron's avatar" });
    expect(preview).toHaveAttribute('src', 'blob:preview-1');
    expect(await within(dialog).findByText('Uploading...')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    release();
    await waitFor(() => expect(within(dialog).queryByText('Uploading...')).toBeNull());
    expect(uploads[0]).toMatch(/^multipart\/form-data/);
    expect(preview).toHaveAttribute('src', 'blob:preview-1');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('img', { name: 'Ada Lovelace-By' })).toHaveAttribute('src', 'http://media.test/avatars/new.png');
  });

  it('puts the old picture back and says why when the upload fails', async () => {
    backend();
    renderOwn();
    const { user, dialog } = await openEditor();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.patch(api('/profile/me/avatar'), () =>
        HttpResponse.json({ detail: 'Image must be smaller than 5MB' }, { status: 413 }),
      ),
    );
    await user.upload(within(dialog).getByLabelText('Change avatar'), pngFile());
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Avatar upload failed');
    expect(alert).toHaveTextContent('Image must be smaller than 5MB');
    expect(within(dialog).getByRole('img', { name: "Ada Lovelace-Byron's avatar" })).toHaveAttribute(
      'src',
      'http://media.test/avatars/old.png',
    );
  });

  it("says 'Failed to upload avatar' when the server gives no reason", async () => {
    backend({ ...adaProfile, avatar_url: null });
    renderOwn();
    const { user, dialog } = await openEditor();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.patch(api('/profile/me/avatar'), () => HttpResponse.error()));
    await user.upload(within(dialog).getByLabelText('Change avatar'), pngFile());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to upload avatar');
    expect(within(dialog).getByRole('img', { name: "Ada Lovelace-Byron's avatar" })).toHaveAttribute('src', defaultAvatar);
  });

  it.each([
    ['a GIF', pngFile('song.gif', 'image/gif'), 'Please select a PNG or JPEG image'],
    ['a 5MB PNG', pngFile('big.png', 'image/png', 5 * 1024 * 1024), 'Image must be smaller than 5MB'],
  ])('refuses %s before uploading', async (_, file, message) => {
    backend();
    renderOwn();
    const { dialog } = await openEditor();
    const uploaded = vi.fn();
    server.use(http.patch(api('/profile/me/avatar'), () => (uploaded(), HttpResponse.json({}))));
    // fireEvent: userEvent.upload would drop a file the input's accept list does not allow.
    fireEvent.change(within(dialog).getByLabelText('Change avatar'), { target: { files: [file] } });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(uploaded).not.toHaveBeenCalled();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });
});
