import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, delay } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { countCachedComment, postQueries, uncountCachedComment, type DisplayPost, type PostPages } from '../posts';
import { CommentsSection } from './comments-section';
import type { CommentInput, CommentMoment, MentionUserJson, MomentLink } from './types';

const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';

function comment(id: number, extra: Partial<CommentInput> = {}): CommentInput {
  return {
    id: String(id),
    content: `Comment ${id}`,
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    author_id: '200',
    author_name: 'Ben',
    author_login: 'ben',
    author_avatar_url: null,
    author_role: MUSICIAN,
    mentions: [],
    ...extra,
  };
}

const people: MentionUserJson[] = [
  { id: '301', login: 'ana', name: 'Ana Lima', avatar_url: '' },
  { id: '302', login: 'anton', name: 'Anton', avatar_url: '' },
];

interface Backend {
  /** Comments the server holds, newest first. */
  comments?: CommentInput[];
  /** What POST answers: the created comment (default), nothing, or an error status. */
  post?: 'comment' | 'empty' | { status: number; body: Record<string, string> };
  postDelay?: number;
}

function backend(options: Backend = {}) {
  const state = {
    comments: options.comments ?? [],
    listCalls: [] as string[],
    posted: [] as unknown[],
    searches: [] as string[],
  };
  server.use(
    http.get(api('/posts/:id/comments'), ({ request }) => {
      const url = new URL(request.url);
      state.listCalls.push(url.search);
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return HttpResponse.json(state.comments.slice(offset, offset + limit));
    }),
    http.post(api('/posts/:id/comments'), async ({ request }) => {
      const body = await request.json();
      state.posted.push(body);
      if (options.postDelay) await delay(options.postDelay);
      const answer = options.post ?? 'comment';
      if (typeof answer === 'object') return HttpResponse.json(answer.body, { status: answer.status });
      const sent = body as { content: string; at_ms?: number; track?: number };
      const created = comment(999, {
        content: sent.content,
        at_ms: sent.at_ms,
        track: sent.at_ms === undefined ? undefined : (sent.track ?? 0),
        created_at: new Date().toISOString(),
        author_id: ADA.id,
        author_name: ADA.name,
        author_login: ADA.login,
        author_role: null,
      });
      state.comments = [created, ...state.comments];
      return answer === 'empty' ? new HttpResponse(null, { status: 201 }) : HttpResponse.json({ comment: created }, { status: 201 });
    }),
    http.get(api('/posts/users/search'), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      state.searches.push(q);
      return HttpResponse.json(people.filter((p) => p.login.startsWith(q.toLowerCase())));
    }),
  );
  return state;
}

function renderSection(count = 0) {
  // As the post page shows it: a new comment is counted on the post.
  return renderPage(<CommentsSection postId="42" count={count} onCommentAdded={countCachedComment} />, {
    route: '/post/42',
    path: '/post/:postId',
  });
}

const input = () => screen.getByRole('textbox', { name: 'Write a comment' });
const publish = () => screen.getByRole('button', { name: /^(Publish|Publishing\.\.\.)$/ });

describe('CommentsSection: the list', () => {
  it('shows each comment with avatar, name, @login to the profile, role badge, short time and text', async () => {
    signedInAs(null);
    backend({ comments: [comment(1, { content: 'Nice <b>take</b> @ana', mentions: [{ user_id: '301', login: 'ana', name: 'Ana', avatar_url: null }] })] });
    renderSection(1);
    const item = await screen.findByRole('article', { name: 'Comment by Ben' });
    expect(within(item).getByText('Ben')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: '@ben' })).toHaveAttribute('href', '/user/200');
    expect(within(item).getByText('Musician')).toHaveAttribute('data-role', 'Musician');
    expect(within(item).getByText('5m')).toBeInTheDocument();
    expect(item.querySelector('img')).toHaveAttribute('alt', '');
    // Markup stays text; the mention links to the person's profile.
    expect(within(item).getByText(/Nice <b>take<\/b>/)).toBeInTheDocument();
    expect(item.querySelector('b')).toBeNull();
    expect(within(item).getByRole('link', { name: '@ana' })).toHaveAttribute('href', '/user/301');
    expect(screen.getByRole('heading', { name: /Comments/ })).toHaveTextContent('1');
  });

  it("says 'No comments yet' / 'Be the first to comment!' when there are none", async () => {
    signedInAs(null);
    backend();
    renderSection();
    expect(await screen.findByText('No comments yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to comment!')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More Comments' })).not.toBeInTheDocument();
  });

  it("pages by 20 with 'Load More Comments' while a full page came back", async () => {
    signedInAs(null);
    const state = backend({ comments: Array.from({ length: 25 }, (_, i) => comment(i + 1)) });
    renderSection(25);
    expect(await screen.findByText('Comment 20')).toBeInTheDocument();
    expect(screen.queryByText('Comment 21')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load More Comments' }));
    expect(await screen.findByText('Comment 25')).toBeInTheDocument();
    expect(state.listCalls).toEqual(['?limit=20&offset=0', '?limit=20&offset=20']);
    expect(screen.queryByRole('button', { name: 'Load More Comments' })).not.toBeInTheDocument();
  });

  it('shows why the comments could not load, with Try Again', async () => {
    signedInAs(null);
    let fail = true;
    server.use(
      http.get(api('/posts/:id/comments'), () =>
        fail ? HttpResponse.json({ detail: 'Post not found' }, { status: 404 }) : HttpResponse.json([comment(1)]),
      ),
    );
    renderSection();
    expect(await screen.findByText('Post not found')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Comment 1')).toBeInTheDocument();
  });
});

describe('CommentsSection: writing', () => {
  it("asks a guest to sign in instead of showing the composer, and comes back here", async () => {
    signedInAs(null);
    backend();
    renderSection();
    const link = await screen.findByRole('link', { name: 'Sign in to comment' });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await userEvent.click(link);
    expect(currentLocation()).toBe('/sign-in');
  });

  it('publishes the trimmed text, puts it on top and counts it on the post', async () => {
    signedInAs(ADA);
    const state = backend({ comments: [comment(1)] });
    const { queryClient } = renderSection(1);
    const detailKey = postQueries.detail('42', ADA.id).queryKey;
    queryClient.setQueryData(detailKey, { id: '42', comments_count: 1 } as DisplayPost);
    const feedKey = postQueries.feed('for-you', ADA.id).queryKey;
    queryClient.setQueryData(feedKey, {
      pages: [{ posts: [{ id: '7', comments_count: 5 }, { id: '42', comments_count: 1 }], received: 2, lastId: '42' }],
      pageParams: [null],
    } as unknown as PostPages);

    expect(await screen.findByText('Comment 1')).toBeInTheDocument();
    expect(screen.getByPlaceholderText("What's on your mind?")).toBe(input());
    expect(publish()).toBeDisabled();
    await userEvent.type(input(), '   ');
    expect(publish()).toBeDisabled();
    await userEvent.type(input(), 'Great track!  ');
    expect(publish()).toBeEnabled();
    await userEvent.click(publish());

    await waitFor(() => expect(screen.getAllByRole('article')[0]).toHaveTextContent('Great track!'));
    expect(state.posted).toEqual([{ content: 'Great track!' }]);
    expect(input()).toHaveValue('');
    expect(queryClient.getQueryData<DisplayPost>(detailKey)?.comments_count).toBe(2);
    const feed = queryClient.getQueryData<PostPages>(feedKey)?.pages[0]?.posts;
    expect(feed?.map((p) => [p.id, p.comments_count])).toEqual([['7', 5], ['42', 2]]);
    // Put on top from the answer: the list was not asked again.
    expect(state.listCalls).toHaveLength(1);
  });

  it("reads 'Publishing...' while sending and sends once however often Enter is pressed", async () => {
    signedInAs(ADA);
    const state = backend({ postDelay: 300 });
    renderSection();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'Hello');
    await userEvent.keyboard('{Enter}{Enter}');
    expect(await screen.findByRole('button', { name: 'Publishing...' })).toBeDisabled();
    expect(screen.getByText('Posting your comment...')).toBeInTheDocument();
    // What is being sent cannot change under it.
    expect(input()).toHaveAttribute('readonly');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Publish' })).toBeInTheDocument());
    expect(state.posted).toHaveLength(1);
    expect(await screen.findByText('Hello')).toBeInTheDocument();
  });

  it('Shift+Enter starts a new line instead of sending', async () => {
    signedInAs(ADA);
    const state = backend();
    renderSection();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'one{Shift>}{Enter}{/Shift}two');
    expect(input()).toHaveValue('one\ntwo');
    expect(state.posted).toHaveLength(0);
  });

  it('asks for the list again when the server sends no comment back', async () => {
    signedInAs(ADA);
    const state = backend({ post: 'empty' });
    renderSection();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'Quiet answer{Enter}');
    expect(await screen.findByText('Quiet answer')).toBeInTheDocument();
    expect(state.listCalls).toHaveLength(2);
  });

  it("shows 'Failed to post comment: {status} {body}' in a banner that can be dismissed, keeping the text", async () => {
    signedInAs(ADA);
    backend({ post: { status: 400, body: { detail: 'Comment cannot be empty' } } });
    renderSection();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'Oops{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to post comment: 400 Comment cannot be empty');
    expect(input()).toHaveValue('Oops');
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('CommentsSection: the mention picker', () => {
  it('searches after @ and a letter, chooses with the arrows and inserts @login with Enter', async () => {
    signedInAs(ADA);
    const state = backend();
    renderSection();
    const box = await screen.findByRole('textbox', { name: 'Write a comment' });
    await userEvent.type(box, 'Hey @');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await userEvent.type(box, 'an');

    const listbox = await screen.findByRole('listbox', { name: 'People to mention' });
    // Typing 'a' then 'n' within 200 ms asks once.
    expect(state.searches).toEqual(['an']);
    const options = within(listbox).getAllByRole('option');
    expect(options).toHaveLength(2);
    expect(options[0]).toHaveTextContent('Ana Lima');
    expect(options[0]).toHaveTextContent('@ana');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);

    await userEvent.keyboard('{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}{Enter}');

    expect(box).toHaveValue('Hey @anton ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // Enter picked; it did not send.
    expect(state.posted).toHaveLength(0);
    await userEvent.type(box, 'hi{Enter}');
    await waitFor(() => expect(state.posted).toEqual([{ content: 'Hey @anton hi' }]));
  });

  it('picks with Tab or a click, and closes with Escape', async () => {
    signedInAs(ADA);
    backend();
    renderSection();
    const box = await screen.findByRole('textbox', { name: 'Write a comment' });
    await userEvent.type(box, '@a');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Tab}');
    expect(box).toHaveValue('@ana ');
    expect(box).toHaveFocus();

    await userEvent.type(box, '@ant');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // Typing on in the same mention does not bring it back.
    await userEvent.type(box, 'o');
    await act(() => new Promise((resolve) => setTimeout(resolve, 350)));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.type(box, ' @an');
    const option = within(await screen.findByRole('listbox')).getByRole('option', { name: /Anton/ });
    await userEvent.click(option);
    expect(box).toHaveValue('@ana @anto @anton ');
  });

  it('does not search for an @ inside a word', async () => {
    signedInAs(ADA);
    const state = backend();
    renderSection();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'mail@an');
    await act(() => new Promise((resolve) => setTimeout(resolve, 350)));
    expect(state.searches).toEqual([]);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});

describe('CommentsSection: each comment’s menu', () => {
  /** As the post page shows it, for a post by `postAuthorId`: deleting counts it off the post. */
  function renderOnPost(postAuthorId: string) {
    return renderPage(
      <CommentsSection
        postId="42"
        count={2}
        postAuthorId={postAuthorId}
        onCommentAdded={countCachedComment}
        onCommentRemoved={uncountCachedComment}
      />,
      { route: '/post/42', path: '/post/:postId' },
    );
  }

  async function itemsOf(name: string): Promise<string[]> {
    const article = await screen.findByRole('article', { name });
    await userEvent.click(within(article).getByRole('button', { name: 'Comment options' }));
    const items = within(article).getAllByRole('menuitem').map((i) => i.textContent ?? '');
    await userEvent.keyboard('{Escape}');
    return items;
  }

  const ADA_S = (n: number) => comment(n, { author_id: ADA.id, author_name: ADA.name, author_login: ADA.login });

  it('offers Delete to exactly the comment’s author, the post’s author and admins; Report on others’', async () => {
    const backendState = { comments: [ADA_S(1), comment(2)] };
    // Ada wrote comment 1; Ben (200) comment 2; the post is Cleo's (300).
    signedInAs(ADA);
    backend(backendState);
    const first = renderOnPost('300');
    expect(await itemsOf('Comment by Ada')).toEqual(['Edit', 'Delete', 'Cancel']);
    expect(await itemsOf('Comment by Ben')).toEqual(['Report', 'Cancel']);
    first.unmount();

    // On her own post, Ada may delete Ben's comment too.
    signedInAs(ADA);
    backend(backendState);
    const second = renderOnPost(ADA.id);
    expect(await itemsOf('Comment by Ben')).toEqual(['Delete', 'Report', 'Cancel']);
    second.unmount();

    signedInAs({ ...ADA, id: '1', login: 'root', name: 'Root', is_admin: true });
    backend(backendState);
    renderOnPost('300');
    expect(await itemsOf('Comment by Ben')).toEqual(['Delete', 'Report', 'Cancel']);
  });

  it('offers a guest Report only, which asks them to sign in', async () => {
    signedInAs(null);
    backend({ comments: [comment(2)] });
    renderOnPost('300');
    expect(await itemsOf('Comment by Ben')).toEqual(['Report', 'Cancel']);
    const article = screen.getByRole('article', { name: 'Comment by Ben' });
    await userEvent.click(within(article).getByRole('button', { name: 'Comment options' }));
    await userEvent.click(within(article).getByRole('menuitem', { name: 'Report' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Authentication required. Please sign in.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes after a confirmation: the comment leaves the list and the post counts one less', async () => {
    signedInAs(ADA);
    const state = backend({ comments: [ADA_S(1), comment(2)] });
    const deleted: string[] = [];
    let finish: () => void = () => {};
    server.use(
      http.delete(api('/posts/:postId/comments/:commentId'), async ({ params }) => {
        deleted.push(`${String(params.postId)}/${String(params.commentId)}`);
        await new Promise<void>((r) => (finish = r));
        state.comments = state.comments.filter((c) => c.id !== params.commentId);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { queryClient } = renderOnPost('300');
    const detailKey = postQueries.detail('42', ADA.id).queryKey;
    queryClient.setQueryData(detailKey, { id: '42', comments_count: 2 } as DisplayPost);
    const article = await screen.findByRole('article', { name: 'Comment by Ada' });
    const user = userEvent.setup();
    await user.click(within(article).getByRole('button', { name: 'Comment options' }));
    await user.click(within(article).getByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    expect(confirm).toHaveTextContent('It will be removed for everyone. This cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(within(confirm).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    finish();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual(['42/1']);
    expect(screen.queryByRole('article', { name: 'Comment by Ada' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Comment by Ben' })).toBeInTheDocument();
    expect(screen.getByTestId('toast')).toHaveTextContent('Comment deleted.');
    expect(queryClient.getQueryData<DisplayPost>(detailKey)?.comments_count).toBe(1);
    // From the cache: the list was not asked again.
    expect(state.listCalls).toHaveLength(1);
  });

  it('Cancel keeps the comment; a refusal says why', async () => {
    signedInAs(ADA);
    backend({ comments: [ADA_S(1)] });
    server.use(
      http.delete(api('/posts/:postId/comments/:commentId'), () =>
        HttpResponse.json({ detail: 'Too many comment deletions in a short time. Please try again in 4 minutes.' }, { status: 429 }),
      ),
    );
    renderOnPost('300');
    const article = await screen.findByRole('article', { name: 'Comment by Ada' });
    const user = userEvent.setup();
    await user.click(within(article).getByRole('button', { name: 'Comment options' }));
    await user.click(within(article).getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(article).getByRole('button', { name: 'Comment options' }));
    await user.click(within(article).getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Failed to delete comment: Too many comment deletions in a short time. Please try again in 4 minutes.',
    );
    expect(screen.getByRole('article', { name: 'Comment by Ada' })).toBeInTheDocument();
  });

  it('reports a comment with the Report dialog posts use', async () => {
    signedInAs(ADA);
    backend({ comments: [comment(2)] });
    const sent: unknown[] = [];
    server.use(
      http.post(api('/reports/comment'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ message: 'Report submitted' }, { status: 201 });
      }),
    );
    renderOnPost('300');
    const article = await screen.findByRole('article', { name: 'Comment by Ben' });
    const user = userEvent.setup();
    await user.click(within(article).getByRole('button', { name: 'Comment options' }));
    await user.click(within(article).getByRole('menuitem', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report comment' });
    expect(dialog).toHaveTextContent('Why are you reporting this comment?');
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Spam', 'Harassment', 'Hate speech', 'Other']);
    await user.click(within(dialog).getByRole('radio', { name: 'Harassment' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ comment_id: '2', reason: 'Harassment', description: null }]);
    expect(screen.getByTestId('toast')).toHaveTextContent(
      'Report submitted successfully. Thank you for helping keep our community safe.',
    );
  });
});

describe('CommentsSection: editing one’s own comment', () => {
  const ADA_S = (n: number, extra: Partial<CommentInput> = {}) =>
    comment(n, { author_id: ADA.id, author_name: ADA.name, author_login: ADA.login, ...extra });

  function editing(answer: (content: string) => Response | Promise<Response>) {
    const sent: unknown[] = [];
    server.use(
      http.patch(api('/posts/:postId/comments/:commentId'), async ({ request, params }) => {
        const body = (await request.json()) as { content: string };
        sent.push({ path: `${String(params.postId)}/${String(params.commentId)}`, ...body });
        return answer(body.content);
      }),
    );
    return sent;
  }

  async function openEditor() {
    const article = await screen.findByRole('article', { name: 'Comment by Ada' });
    const user = userEvent.setup();
    await user.click(within(article).getByRole('button', { name: 'Comment options' }));
    await user.click(within(article).getByRole('menuitem', { name: 'Edit' }));
    const box = within(article).getByRole('textbox', { name: 'Edit your comment' });
    return { article, user, box };
  }

  it('edits in place: the text in the box, Save sends the trimmed text, the new text shows with “edited”', async () => {
    signedInAs(ADA);
    const state = backend({ comments: [ADA_S(1, { content: 'first take' })] });
    const sent = editing((content) =>
      HttpResponse.json({ comment: ADA_S(1, { content, edited_at: new Date().toISOString() }) }),
    );
    renderPage(<CommentsSection postId="42" count={1} />, { route: '/post/42', path: '/post/:postId' });
    const { article, user, box } = await openEditor();
    expect(box).toHaveValue('first take');
    expect(box).toHaveFocus();
    await user.clear(box);
    await user.type(box, '  second take ');
    await user.click(within(article).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(within(article).queryByRole('textbox')).toBeNull());
    expect(sent).toEqual([{ path: '42/1', content: 'second take' }]);
    expect(article).toHaveTextContent('second take');
    expect(within(article).getByText('edited')).toBeInTheDocument();
    // From the answer: the list was not asked again; the focus is back on the comment's menu.
    expect(state.listCalls).toHaveLength(1);
    await waitFor(() => expect(within(article).getByRole('button', { name: 'Comment options' })).toHaveFocus());
  });

  it('Escape and Cancel leave it as it was; unchanged text sends nothing; Enter saves', async () => {
    signedInAs(ADA);
    backend({ comments: [ADA_S(1, { content: 'as is' })] });
    const sent = editing((content) => HttpResponse.json({ comment: ADA_S(1, { content, edited_at: new Date().toISOString() }) }));
    renderPage(<CommentsSection postId="42" count={1} />, { route: '/post/42', path: '/post/:postId' });
    let { article, user, box } = await openEditor();
    await user.type(box, ' more');
    await user.keyboard('{Escape}');
    expect(within(article).queryByRole('textbox')).toBeNull();
    expect(article).toHaveTextContent('as is');
    expect(article).not.toHaveTextContent('more');

    ({ article, user } = await openEditor());
    await user.click(within(article).getByRole('button', { name: 'Save' }));
    expect(within(article).queryByRole('textbox')).toBeNull();
    expect(sent).toEqual([]);

    ({ article, user, box } = await openEditor());
    await user.type(box, ' and more{Enter}');
    await waitFor(() => expect(sent).toEqual([{ path: '42/1', content: 'as is and more' }]));
    expect(await within(article).findByText('as is and more')).toBeInTheDocument();
  });

  it('says what the server refused under the box and keeps the text', async () => {
    signedInAs(ADA);
    backend({ comments: [ADA_S(1, { content: 'mine' })] });
    editing(() => HttpResponse.json({ detail: 'Too many edits in a short time. Please try again in 4 minutes.' }, { status: 429 }));
    renderPage(<CommentsSection postId="42" count={1} />, { route: '/post/42', path: '/post/:postId' });
    const { article, user, box } = await openEditor();
    await user.type(box, '!');
    await user.click(within(article).getByRole('button', { name: 'Save' }));
    expect(await within(article).findByRole('alert')).toHaveTextContent(
      'Failed to save comment: 429 Too many edits in a short time. Please try again in 4 minutes.',
    );
    expect(box).toHaveValue('mine!');
    expect(box).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('CommentsSection: comments on a moment of the track', () => {
  /** A player on one of the post's tracks (or none), and what was asked to play. */
  function player(at: CommentMoment | null) {
    const played: CommentMoment[] = [];
    const link: MomentLink = {
      current: () => at,
      play: (moment) => played.push(moment),
      trackTitle: () => null,
    };
    return { link, played, move: (next: CommentMoment | null) => (at = next) };
  }

  function renderWith(link: MomentLink) {
    return renderPage(<CommentsSection postId="42" moments={link} />, { route: '/post/42', path: '/post/:postId' });
  }

  it('takes the moment the player is at when writing starts, and sends it', async () => {
    signedInAs(ADA);
    const state = backend();
    const { link, move } = player({ track: 0, ms: 83_400 });
    renderWith(link);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'the solo');
    // Taken once, when the writing started: the player moving on does not move it.
    move({ track: 0, ms: 95_000 });
    await userEvent.type(input(), '!');
    expect(screen.getByText('at 1:23')).toBeInTheDocument();
    await userEvent.click(publish());
    await waitFor(() => expect(state.posted).toEqual([{ content: 'the solo!', at_ms: 83_400, track: 0 }]));
    const mine = await screen.findByRole('article', { name: `Comment by ${ADA.name}` });
    expect(within(mine).getByRole('button', { name: 'Play from at 1:23' })).toBeInTheDocument();
    // The next comment starts again without one, until writing starts.
    expect(screen.queryByText('at 1:23', { selector: 'span' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add the time' })).toBeInTheDocument();
  });

  it('sends no moment once it is removed, and Add the time takes it again', async () => {
    signedInAs(ADA);
    const state = backend();
    const { link, move } = player({ track: 1, ms: 5_000 });
    renderWith(link);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Write a comment' }), 'whole song');
    await userEvent.click(screen.getByRole('button', { name: 'Remove the time (at 0:05)' }));
    await userEvent.click(publish());
    await waitFor(() => expect(state.posted).toEqual([{ content: 'whole song' }]));

    move(null);
    await userEvent.click(screen.getByRole('button', { name: 'Add the time' }));
    expect(screen.getByText('Play the track, then add the time you are at.')).toHaveAttribute('role', 'status');
    move({ track: 1, ms: 7_900 });
    await userEvent.click(screen.getByRole('button', { name: 'Add the time' }));
    expect(screen.getByRole('button', { name: 'Remove the time (at 0:07)' })).toBeInTheDocument();
  });

  it('plays a comment from its moment; without a player its time is only said', async () => {
    signedInAs(null);
    backend({ comments: [comment(1, { at_ms: 61_000, track: 2 }), comment(2)] });
    const { link, played } = player(null);
    const { unmount } = renderWith(link);
    await userEvent.click(await screen.findByRole('button', { name: 'Play from at 1:01' }));
    expect(played).toEqual([{ track: 2, ms: 61_000 }]);
    expect(screen.getAllByRole('button', { name: /^Play from/ })).toHaveLength(1);
    unmount();
    renderSection();
    expect(await screen.findByText('at 1:01')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Play from/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add the time' })).toBeNull();
  });
});
