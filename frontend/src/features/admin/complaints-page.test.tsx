import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { queryOptions } from '@tanstack/react-query';
import { api, server } from '../../test/server';
import { currentLocation } from '../../test/render';
import { signedInAs } from '../../test/session';
import type { ComplaintGroupJson, ComplaintInput } from './api';
import { complaint, group, renderPanel, ROOT } from './test-fixtures';

interface Backend {
  /** The pending groups, most reported first; `groups` answers pages of 10 by cursor. */
  groups: () => ComplaintGroupJson[] | Response;
  resolved?: () => ComplaintInput[];
}

/** GET /admin/reports/groups and GET /admin/reports?status=resolved, recording what was asked. */
function reportsServer({ groups, resolved = () => [] }: Backend) {
  const calls = { groups: [] as string[], resolved: [] as string[] };
  server.use(
    http.get(api('/admin/reports/groups'), ({ request }) => {
      const url = new URL(request.url);
      calls.groups.push(url.search);
      const all = groups();
      if (all instanceof Response) return all;
      const before = url.searchParams.get('before');
      const start = before ? all.findIndex((g) => g.cursor === before) + 1 : 0;
      return HttpResponse.json(all.slice(start, start + Number(url.searchParams.get('limit') ?? 10)));
    }),
    http.get(api('/admin/reports'), ({ request }) => {
      calls.resolved.push(new URL(request.url).search);
      return HttpResponse.json(resolved());
    }),
  );
  return calls;
}

/** One pending complaint per group, and these resolved ones. */
function showing(pending: ComplaintInput[], resolved: ComplaintInput[] = []) {
  return reportsServer({ groups: () => pending.map((c) => group([c])), resolved: () => resolved });
}

async function openDetails(title: string) {
  const user = userEvent.setup();
  const row = (await screen.findByText(title)).closest('li')!;
  await user.click(within(row).getByRole('button', { name: 'View Details' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Complaint Details' }) };
}

/** The value shown under a label of the details dialog. */
function field(dialog: HTMLElement, label: string): string | null {
  const term = within(dialog).queryByText(label, { selector: 'dt' });
  return term?.nextElementSibling?.textContent ?? null;
}

/** A single complaint's row shows its own title (spec §2: title and data). */
const ROW = 'Report #r1: Spam';

describe('ComplaintsPage', () => {
  it("says when a complaint was made as the rest of the panel does, not in the server's UTC", async () => {
    const made = new Date(Date.now() - 16 * 60_000);
    reportsServer({
      groups: () => [
        group([
          complaint({
            id: 'r9',
            title: 'Spam: score by @cleo',
            data: `Reported by Bob on ${made.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
            created_at: made.toISOString(),
          }),
        ]),
      ],
      resolved: () => [],
    });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const pending = await screen.findByRole('list', { name: 'Pending complaints' });
    const row = within(pending).getAllByRole('listitem')[0]!;
    expect(row).toHaveTextContent('Reported by Bob · 16m ago');
    expect(row).not.toHaveTextContent('UTC');
    expect(within(row).getByText('16m ago')).toHaveAttribute('dateTime', made.toISOString());
  });

  it("lists the pending complaints under 'User Complaints' one row per reported item, the resolved ones folded below", async () => {
    const calls = reportsServer({
      groups: () => [
        group([complaint({ id: 'r3' }), complaint({ id: 'r2', reason: 'Harassment' }), complaint({ id: 'r1' })]),
        group([complaint({ id: 'r4', post_id: 'p2', title: 'Report #r4: Spam', data: 'Dan reported an audio post' })]),
      ],
      resolved: () => [complaint({ id: 'r0', title: 'Report #r0: Other', status: 'ignored', resolved_at: new Date().toISOString() })],
    });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('heading', { level: 1, name: 'User Complaints' })).toBeInTheDocument();
    const pending = await screen.findByRole('list', { name: 'Pending complaints' });
    const rows = within(pending).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Lyrics post by @cleo');
    expect(rows[0]).toHaveTextContent('3 complaints');
    expect(rows[0]).toHaveTextContent('2 Spam, Harassment');
    // A single complaint: the spec's title and data.
    expect(rows[1]).toHaveTextContent('Report #r4: Spam');
    expect(rows[1]).toHaveTextContent('Dan reported an audio post');
    expect(rows[1]).toHaveTextContent('1');
    expect(within(rows[0]!).getByRole('button', { name: 'View Details' })).toBeEnabled();
    expect(screen.getByText(/2 reported items wait for a decision/)).toBeInTheDocument();
    // Resolved: folded until opened.
    const resolved = await screen.findByText('Report #r0: Other');
    expect(resolved).not.toBeVisible();
    expect(resolved.closest('details')).not.toHaveAttribute('open');
    expect(calls.groups).toEqual(['?limit=10']);
    expect(calls.resolved).toEqual(['?status=resolved&limit=20']);
  });

  it("pages the to-do list by 10 with 'Load More'", async () => {
    const all = Array.from({ length: 12 }, (_, i) =>
      group([complaint({ id: `r${i}`, post_id: `p${i}`, title: `Report #r${i}: Spam` })]),
    );
    const calls = reportsServer({ groups: () => all });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const pending = await screen.findByRole('list', { name: 'Pending complaints' });
    expect(within(pending).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText(/10\+ reported items wait/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(within(pending).getAllByRole('listitem')).toHaveLength(12));
    expect(calls.groups).toEqual(['?limit=10', `?limit=10&before=${all[9]!.cursor}`]);
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("says 'No reports found' when nothing is pending", async () => {
    showing([]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Details' })).toBeNull();
  });

  it('shows every field of a single complaint in its details', async () => {
    showing([complaint({ description: 'Posted the same link forty times' })]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { dialog } = await openDetails(ROW);
    expect(field(dialog, 'Reporter ID')).toBe('200');
    expect(field(dialog, 'Reporter Name')).toBe('Ben @ben');
    expect(field(dialog, 'Post ID')).toBe('p1');
    expect(field(dialog, 'Reason')).toBe('Spam');
    expect(field(dialog, 'Description')).toBe('Posted the same link forty times');
    expect(field(dialog, 'Status')).toBe('pending');
    const link = within(dialog).getByRole('link', { name: /Open post/ });
    expect(link).toHaveAttribute('href', 'http://selfsound.test/app/post/p1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(dialog).toHaveTextContent('Still on SelfSound');
    expect(within(dialog).getByRole('button', { name: 'Delete Post' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Ignore' })).toBeEnabled();
  });

  it("says 'Unknown' for a reporter who is gone, 'pending' without a status, no empty description", async () => {
    showing([complaint({ reporter_id: null, reporter_name: null, reporter: null, status: undefined, description: '  ' })]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { dialog } = await openDetails(ROW);
    expect(field(dialog, 'Reporter Name')).toBe('Unknown');
    expect(field(dialog, 'Reporter ID')).toBe('—');
    expect(field(dialog, 'Status')).toBe('pending');
    expect(field(dialog, 'Description')).toBeNull();
  });

  it('shows a comment’s complaints with the comment, its author and every reporter; Delete Comment decides for all', async () => {
    const comment = {
      id: 'c9',
      content: 'you have no talent',
      exists: true,
      author: { id: '400', login: 'dan', name: 'Dan', avatar_url: '' },
    };
    const about = (id: string, reporter: string, reason: string, description: string | null = null) =>
      complaint({
        id,
        reason,
        description,
        comment,
        comment_id: 'c9',
        reporter_name: reporter,
        reporter: { id: `u-${id}`, login: reporter.toLowerCase(), name: reporter, avatar_url: '' },
      });
    let pending = [group([about('r3', 'Cat', 'Other', 'Bullying again'), about('r2', 'Ben', 'Harassment'), about('r1', 'Eli', 'Harassment')])];
    reportsServer({ groups: () => pending });
    const sent: unknown[] = [];
    server.use(
      http.post(api('/admin/reports/:id/resolve'), async ({ params, request }) => {
        sent.push([params.id, await request.json()]);
        pending = [];
        return HttpResponse.json({ message: 'Report deleted successfully', status: 'deleted', resolved: ['r1', 'r2', 'r3'] });
      }),
    );
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const row = (await screen.findByText('Comment by @dan on a lyrics post by @cleo')).closest('li')!;
    expect(row).toHaveTextContent('you have no talent');
    expect(row).toHaveTextContent('3 complaints');
    expect(row).toHaveTextContent('2 Harassment, Other');
    const { user, dialog } = await openDetails('Comment by @dan on a lyrics post by @cleo');
    expect(field(dialog, 'Reported Comment')).toBe('you have no talentby Dan @dan');
    expect(field(dialog, 'Complaints')).toBe('3 complaints · 2 Harassment, Other');
    const reporters = within(dialog).getByRole('list', { name: 'Reported By' });
    expect(within(reporters).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Cat@catOther'),
      expect.stringContaining('Ben@benHarassment'),
      expect.stringContaining('Eli@eliHarassment'),
    ]);
    expect(reporters).toHaveTextContent('Bullying again');
    expect(field(dialog, 'Reporter ID')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Delete Post' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Delete Comment' }));
    // It asks first; nothing is sent until the admin says yes.
    expect(within(dialog).getByRole('group', { name: 'Delete this comment for everyone? This cannot be undone.' })).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete comment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([['r3', { action: 'delete_comment', scope: 'item' }]]);
    expect(screen.getByTestId('toast')).toHaveTextContent('Report deleted successfully');
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
  });

  it('closes on Close and on a click on the backdrop', async () => {
    showing([complaint()]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { user } = await openDetails(ROW);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await openDetails(ROW);
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("deletes the post: 'Deleting...', both buttons wait, then the row goes, the dialog closes, a toast says so", async () => {
    let pending = [complaint(), complaint({ id: 'r2', post_id: 'p2', title: 'Report #r2: Harassment' })];
    let resolved: ComplaintInput[] = [];
    reportsServer({ groups: () => pending.map((c) => group([c])), resolved: () => resolved });
    const sent: unknown[] = [];
    let finish: () => void = () => {};
    server.use(
      http.post(api('/admin/reports/:id/resolve'), async ({ params, request }) => {
        sent.push([params.id, await request.json()]);
        await new Promise<void>((r) => (finish = r));
        resolved = [complaint({ title: 'Report #r1: Spam', status: 'deleted', post_exists: false })];
        pending = pending.filter((c) => c.id !== 'r1');
        return HttpResponse.json({ message: 'Report deleted successfully', status: 'deleted', resolved: ['r1'] });
      }),
    );
    signedInAs(ROOT);
    const { queryClient } = renderPanel('/admin/c');
    // Something on screen that shows posts, e.g. a feed: deleting must refresh it.
    const feed = queryOptions({ queryKey: ['feed-probe'], queryFn: () => 1, meta: { shows: ['posts'] } });
    await queryClient.fetchQuery(feed);
    const { user, dialog } = await openDetails(ROW);

    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    // Asked first, with the answer focused; Cancel goes back to the two choices.
    expect(within(dialog).getByRole('button', { name: 'Yes, delete post' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByRole('button', { name: 'Ignore' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete post' }));
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    finish();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('toast')).toHaveTextContent('Report deleted successfully');
    const list = screen.getByRole('list', { name: 'Pending complaints' });
    expect(within(list).queryByText(ROW)).toBeNull();
    expect(within(list).getByText('Report #r2: Harassment')).toBeInTheDocument();
    expect(sent).toEqual([['r1', { action: 'delete_post', scope: 'item' }]]);
    expect(queryClient.getQueryState(feed.queryKey)?.isInvalidated).toBe(true);
    // It now sits among the resolved ones, with its new status.
    const done = await screen.findByRole('list', { name: 'Resolved complaints', hidden: true });
    expect(within(done).getByText('Report #r1: Spam')).toBeInTheDocument();
  });

  it("ignores: 'Ignoring...', then 'Report ignored successfully'; post lists are left alone", async () => {
    let pending = [complaint()];
    reportsServer({ groups: () => pending.map((c) => group([c])) });
    let finish: () => void = () => {};
    server.use(
      http.post(api('/admin/reports/:id/resolve'), async () => {
        await new Promise<void>((r) => (finish = r));
        pending = [];
        return HttpResponse.json({ message: 'Report ignored successfully', status: 'ignored' });
      }),
    );
    signedInAs(ROOT);
    const { queryClient } = renderPanel('/admin/c');
    const feed = queryOptions({ queryKey: ['feed-probe'], queryFn: () => 1, meta: { shows: ['posts'] } });
    await queryClient.fetchQuery(feed);
    const { user, dialog } = await openDetails(ROW);
    await user.click(within(dialog).getByRole('button', { name: 'Ignore' }));
    expect(within(dialog).getByRole('button', { name: 'Ignoring...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Delete Post' })).toBeDisabled();
    finish();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('toast')).toHaveTextContent('Report ignored successfully');
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
    expect(queryClient.getQueryState(feed.queryKey)?.isInvalidated).toBe(false);
  });

  it("shows the server's words when a decision fails (409), and keeps the dialog", async () => {
    showing([complaint()]);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(
      http.post(api('/admin/reports/:id/resolve'), () =>
        HttpResponse.json({ detail: 'This report was already resolved' }, { status: 409 }),
      ),
    );
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { user, dialog } = await openDetails(ROW);
    await user.click(within(dialog).getByRole('button', { name: 'Ignore' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This report was already resolved');
    expect(alert).not.toHaveBeenCalled();
  });

  it("says 'Failed to resolve report' when the server gives no words", async () => {
    showing([complaint()]);
    server.use(http.post(api('/admin/reports/:id/resolve'), () => new HttpResponse(null, { status: 500 })));
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { user, dialog } = await openDetails(ROW);
    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete post' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to resolve report');
    expect(within(dialog).getByRole('button', { name: 'Yes, delete post' })).toBeEnabled();
  });

  it('shows a resolved complaint with its history and no buttons', async () => {
    showing(
      [],
      [
        complaint({
          title: 'Report #r1: Spam',
          status: 'deleted',
          post_exists: false,
          resolved_at: new Date(Date.now() - 2 * 3600_000).toISOString(),
          audit: [
            {
              action: 'delete_post',
              admin_id: '1',
              admin_login: 'root',
              created_at: new Date(Date.now() - 2 * 3600_000).toISOString(),
            },
          ],
        }),
      ],
    );
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const user = userEvent.setup();
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
    await user.click(await screen.findByText('Resolved'));
    const { dialog } = await openDetails('Report #r1: Spam');
    expect(field(dialog, 'Status')).toBe('deleted');
    expect(field(dialog, 'History')).toBe('Deleted by @root · 2h ago');
    expect(dialog).toHaveTextContent('Post deleted');
    expect(within(dialog).queryByRole('button', { name: 'Delete Post' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Ignore' })).toBeNull();
  });

  it("says 'Admin access required' in place on a 403; signing in as an admin keeps the form for another account", async () => {
    reportsServer({ groups: () => HttpResponse.json({ detail: 'Admin access required' }, { status: 403 }) });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin access required' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/admin/c');
    await userEvent.click(screen.getByRole('link', { name: 'Sign in as an admin' }));
    expect(await screen.findByTestId('sign-in')).toHaveTextContent(
      'Admin access required | from /admin/c | another true',
    );
  });

  it("says 'HTTP error! status: {code}' with Try Again, which asks again", async () => {
    let fail = true;
    const calls = reportsServer({
      groups: () => (fail ? HttpResponse.json({ detail: 'boom' }, { status: 502 }) : [group([complaint()])]),
    });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 502');
    const asked = calls.groups.length;
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(ROW)).toBeInTheDocument();
    expect(calls.groups.length).toBe(asked + 1);
  });

  it("says 'Failed to load reports' when the server cannot be reached", async () => {
    reportsServer({ groups: () => HttpResponse.error() });
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load reports');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeEnabled();
  });
});
