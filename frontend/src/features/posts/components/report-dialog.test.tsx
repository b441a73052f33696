import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../../test/server';
import { currentLocation, renderPage } from '../../../test/render';
import { ADA, signedInAs } from '../../../test/session';
import { getToken } from '../../../lib/token-storage';
import { toDisplayPost } from '../transform';
import type { DisplayPost, PostInput } from '../types';
import { PostCard } from './post-card';
import { PostHeader } from './post-header';

function post(overrides: Partial<PostInput> = {}): DisplayPost {
  const shown = toDisplayPost({
    id: '7',
    type: 'lyrics',
    caption: null,
    created_at: new Date(Date.now() - 3_600_000).toISOString(),
    likes_count: 0,
    comments_count: 0,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana Sol', tag_id: null, avatar_url: null },
    lyrics: { title: 'Night Drive', artist: 'Ana Sol', lyrics_text: 'la la', parts: [] },
    ...overrides,
  });
  if (!shown) throw new Error('fixture should be showable');
  return shown;
}

/** POST /reports/post: records each body and answers with `reply`. */
function reports(reply: () => Response = () => HttpResponse.json({ message: 'Report submitted' }, { status: 201 })) {
  const sent: unknown[] = [];
  server.use(
    http.post(api('/reports/post'), async ({ request }) => {
      sent.push({ body: await request.json(), auth: request.headers.get('authorization') });
      return reply();
    }),
  );
  return sent;
}

async function openReport() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Post options' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Report' }));
  const dialog = await screen.findByRole('dialog', { name: 'Report post' });
  return { user, dialog };
}

const submit = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Submit report' });

describe('Reporting a post', () => {
  it('offers the four reasons, none chosen; Other asks for words', async () => {
    signedInAs(ADA);
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Spam', 'Harassment', 'Hate speech', 'Other']);
    expect(radios.some((r) => (r as HTMLInputElement).checked)).toBe(false);
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'Other' }));
    expect(within(dialog).getByRole('textbox', { name: 'Tell us more' })).toBeInTheDocument();
  });

  it("says 'Please select or enter a reason.' in the dialog for no reason, or Other without words", async () => {
    signedInAs(ADA);
    const sent = reports();
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(submit(dialog));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select or enter a reason.');

    await user.click(within(dialog).getByRole('radio', { name: 'Other' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await user.type(within(dialog).getByRole('textbox'), '   ');
    await user.click(submit(dialog));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select or enter a reason.');
    expect(sent).toEqual([]);
  });

  it('sends the reason with a null description, thanks, and closes', async () => {
    signedInAs(ADA);
    const sent = reports();
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Hate speech' }));
    await user.click(submit(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ body: { post_id: '7', reason: 'Hate speech', description: null }, auth: 'Bearer test-token' }]);
    expect(screen.getByTestId('toast')).toHaveTextContent(
      'Report submitted successfully. Thank you for helping keep our community safe.',
    );
    expect(screen.getByRole('button', { name: 'Post options' })).toHaveFocus();
  });

  it("sends Other with the trimmed words as description", async () => {
    signedInAs(ADA);
    const sent = reports();
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Other' }));
    await user.type(within(dialog).getByRole('textbox'), '  Stolen lyrics  ');
    await user.click(submit(dialog));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ body: { post_id: '7', reason: 'Other', description: 'Stolen lyrics' } });
  });

  it('starts with no reason each time it opens, and closes on a click on the backdrop', async () => {
    signedInAs(ADA);
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();

    const again = await openReport();
    expect(within(again.dialog).getByRole('radio', { name: 'Spam' })).not.toBeChecked();
  });

  it("shows the server's detail and keeps the dialog open to try again", async () => {
    signedInAs(ADA);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    reports(() => HttpResponse.json({ detail: 'Post not found' }, { status: 404 }));
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(submit(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Post not found');
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).toBeChecked();
  });

  it("says 'Failed to submit report' without a detail, and '… Please try again.' when the server cannot be reached", async () => {
    signedInAs(ADA);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    reports(() => new HttpResponse('oops', { status: 500 }));
    renderPage(<PostCard post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(submit(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to submit report$/);

    reports(() => HttpResponse.error());
    await user.click(submit(dialog));
    expect(await within(dialog).findByText('Failed to submit report. Please try again.')).toBeInTheDocument();
  });

  it('on a 401 closes, forgets the token and says the session expired, with a way to sign in', async () => {
    signedInAs(ADA);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    reports(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    renderPage(<PostCard post={post()} />, { route: '/home' });
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Harassment' }));
    await user.click(submit(dialog));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Session expired. Please sign in again.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getToken()).toBeNull();
    await user.click(within(toast).getByRole('button', { name: 'Sign in' }));
    expect(currentLocation()).toBe('/sign-in');
  });

  it("tells a guest 'Authentication required. Please sign in.' without opening the dialog", async () => {
    signedInAs(null);
    renderPage(<PostCard post={post()} />, { route: '/home' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Report' }));
    expect(screen.getByTestId('toast')).toHaveTextContent('Authentication required. Please sign in.');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(screen.getByTestId('toast')).getByRole('button', { name: 'Sign in' }));
    expect(currentLocation()).toBe('/sign-in');
  });

  it("is in the post page's header too (lyrics and scores show it without a card)", async () => {
    signedInAs(ADA);
    const sent = reports();
    renderPage(<PostHeader post={post()} />);
    const { user, dialog } = await openReport();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(submit(dialog));
    await waitFor(() => expect(sent).toHaveLength(1));
  });

  it('is not offered on one’s own post', async () => {
    signedInAs(ADA);
    renderPage(<PostCard post={post({ user: { id: ADA.id, login: 'ada', name: 'Ada', tag_id: null, avatar_url: null } })} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Post options' }));
    expect(screen.queryByRole('menuitem', { name: 'Report' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Delete post' })).toBeInTheDocument();
  });
});
