import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { queryOptions } from '@tanstack/react-query';
import { api, server } from '../../test/server';
import { currentLocation } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import type { ComplaintInput } from './api';
import { complaint, renderPanel, ROOT } from './test-fixtures';

function reportsServer(answer: () => Response | Promise<Response>) {
  const calls = { get: 0, urls: [] as string[] };
  server.use(
    http.get(api('/admin/reports'), ({ request }) => {
      calls.get += 1;
      calls.urls.push(new URL(request.url).search);
      return answer();
    }),
  );
  return calls;
}

function showing(list: ComplaintInput[]) {
  return reportsServer(() => HttpResponse.json(list));
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

describe('ComplaintsPage', () => {
  it("lists the pending complaints under 'User Complaints', the resolved ones folded below", async () => {
    const calls = showing([
      complaint(),
      complaint({ id: 'r2', title: 'Report #r2: Harassment', data: 'Dan reported an audio post' }),
      complaint({ id: 'r0', title: 'Report #r0: Other', status: 'ignored', resolved_at: new Date().toISOString() }),
    ]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('heading', { level: 1, name: 'User Complaints' })).toBeInTheDocument();
    const pending = await screen.findByRole('list', { name: 'Pending complaints' });
    const rows = within(pending).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Report #r1: Spam');
    expect(rows[0]).toHaveTextContent('Ben reported a lyrics post by @cleo');
    expect(within(rows[0]!).getByRole('button', { name: 'View Details' })).toBeEnabled();
    // Resolved: folded until opened.
    const resolved = screen.getByText('Report #r0: Other');
    expect(resolved).not.toBeVisible();
    expect(resolved.closest('details')).not.toHaveAttribute('open');
    expect(calls.urls).toEqual(['?status=all&limit=100']);
  });

  it("says 'No reports found' when nothing is pending", async () => {
    showing([]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Details' })).toBeNull();
  });

  it('shows every field of the complaint in its details', async () => {
    showing([complaint({ description: 'Posted the same link forty times' })]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { dialog } = await openDetails('Report #r1: Spam');
    expect(field(dialog, 'Reporter ID')).toBe('200');
    expect(field(dialog, 'Reporter Name')).toBe('Ben @ben');
    expect(field(dialog, 'Post ID')).toBe('p1');
    expect(field(dialog, 'Reason')).toBe('Spam');
    expect(field(dialog, 'Description')).toBe('Posted the same link forty times');
    expect(field(dialog, 'Status')).toBe('pending');
    expect(field(dialog, 'Reported')).toBe('3h ago');
    const link = within(dialog).getByRole('link', { name: /Open post/ });
    expect(link).toHaveAttribute('href', 'http://selfsound.test/app/post/p1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(dialog).toHaveTextContent('Still on SelfSound');
    expect(within(dialog).getByRole('button', { name: 'Delete Post' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Ignore' })).toBeEnabled();
  });

  it("says 'Unknown' for a reporter who is gone, 'pending' without a status, no empty description", async () => {
    showing([
      complaint({ reporter_id: null, reporter_name: null, reporter: null, status: null, description: '  ' }),
    ]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { dialog } = await openDetails('Report #r1: Spam');
    expect(field(dialog, 'Reporter Name')).toBe('Unknown');
    expect(field(dialog, 'Reporter ID')).toBe('—');
    expect(field(dialog, 'Status')).toBe('pending');
    expect(field(dialog, 'Description')).toBeNull();
  });

  it('closes on Close and on a click on the backdrop', async () => {
    showing([complaint()]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { user } = await openDetails('Report #r1: Spam');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await openDetails('Report #r1: Spam');
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("deletes the post: 'Deleting...', both buttons wait, then the row goes, the dialog closes, a toast says so", async () => {
    let list = [complaint(), complaint({ id: 'r2', title: 'Report #r2: Harassment' })];
    reportsServer(() => HttpResponse.json(list));
    const sent: unknown[] = [];
    let finish: () => void = () => {};
    server.use(
      http.post(api('/admin/reports/:id/resolve'), async ({ params, request }) => {
        sent.push([params.id, await request.json()]);
        await new Promise<void>((r) => (finish = r));
        list = list.map((c) => (c.id === 'r1' ? { ...c, status: 'deleted', post_exists: false } : c));
        return HttpResponse.json({ message: 'Post deleted', status: 'deleted' });
      }),
    );
    signedInAs(ROOT);
    const { queryClient } = renderPanel('/admin/c');
    // Something on screen that shows posts, e.g. a feed: deleting must refresh it.
    const feed = queryOptions({ queryKey: ['feed-probe'], queryFn: () => 1, meta: { shows: ['posts'] } });
    await queryClient.fetchQuery(feed);
    const { user, dialog } = await openDetails('Report #r1: Spam');

    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Ignore' })).toBeDisabled();
    finish();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('toast')).toHaveTextContent('Report deleted successfully');
    const pending = screen.getByRole('list', { name: 'Pending complaints' });
    expect(within(pending).queryByText('Report #r1: Spam')).toBeNull();
    expect(within(pending).getByText('Report #r2: Harassment')).toBeInTheDocument();
    expect(sent).toEqual([['r1', { action: 'delete_post' }]]);
    expect(queryClient.getQueryState(feed.queryKey)?.isInvalidated).toBe(true);
    // It now sits among the resolved ones, with its new status.
    const resolved = await screen.findByRole('list', { name: 'Resolved complaints', hidden: true });
    expect(within(resolved).getByText('Report #r1: Spam')).toBeInTheDocument();
  });

  it("ignores: 'Ignoring...', then 'Report ignored successfully'; post lists are left alone", async () => {
    let list = [complaint()];
    reportsServer(() => HttpResponse.json(list));
    let finish: () => void = () => {};
    server.use(
      http.post(api('/admin/reports/:id/resolve'), async () => {
        await new Promise<void>((r) => (finish = r));
        list = [complaint({ status: 'ignored' })];
        return HttpResponse.json({ message: 'Report ignored', status: 'ignored' });
      }),
    );
    signedInAs(ROOT);
    const { queryClient } = renderPanel('/admin/c');
    const feed = queryOptions({ queryKey: ['feed-probe'], queryFn: () => 1, meta: { shows: ['posts'] } });
    await queryClient.fetchQuery(feed);
    const { user, dialog } = await openDetails('Report #r1: Spam');
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
    const { user, dialog } = await openDetails('Report #r1: Spam');
    await user.click(within(dialog).getByRole('button', { name: 'Ignore' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This report was already resolved');
    expect(alert).not.toHaveBeenCalled();
  });

  it("says 'Failed to resolve report' when the server gives no words", async () => {
    showing([complaint()]);
    server.use(http.post(api('/admin/reports/:id/resolve'), () => new HttpResponse(null, { status: 500 })));
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const { user, dialog } = await openDetails('Report #r1: Spam');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to resolve report');
    expect(within(dialog).getByRole('button', { name: 'Delete Post' })).toBeEnabled();
  });

  it('shows a resolved complaint with its history and no buttons', async () => {
    showing([
      complaint({
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
    ]);
    signedInAs(ROOT);
    renderPanel('/admin/c');
    const user = userEvent.setup();
    expect(await screen.findByText('No reports found')).toBeInTheDocument();
    await user.click(screen.getByText('Resolved'));
    const { dialog } = await openDetails('Report #r1: Spam');
    expect(field(dialog, 'Status')).toBe('deleted');
    expect(field(dialog, 'History')).toBe('Deleted by @root · 2h ago');
    expect(dialog).toHaveTextContent('Post deleted');
    expect(within(dialog).queryByRole('button', { name: 'Delete Post' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Ignore' })).toBeNull();
  });

  it("goes to sign in with 'Admin access required' on a 403, keeping the form for another account", async () => {
    reportsServer(() => HttpResponse.json({ detail: 'Admin access required' }, { status: 403 }));
    signedInAs(ADA);
    renderPanel('/admin/c');
    expect(await screen.findByTestId('sign-in')).toHaveTextContent(
      'Admin access required | from /admin/c | another true',
    );
    expect(currentLocation()).toBe('/sign-in');
  });

  it("says 'HTTP error! status: {code}' with Try Again, which asks again", async () => {
    let fail = true;
    const calls = reportsServer(() =>
      fail ? HttpResponse.json({ detail: 'boom' }, { status: 502 }) : HttpResponse.json([complaint()]),
    );
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 502');
    const asked = calls.get;
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Report #r1: Spam')).toBeInTheDocument();
    expect(calls.get).toBe(asked + 1);
  });

  it("says 'Failed to load reports' when the server cannot be reached", async () => {
    reportsServer(() => HttpResponse.error());
    signedInAs(ROOT);
    renderPanel('/admin/c');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load reports');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeEnabled();
  });
});
