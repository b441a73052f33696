import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { signedInAs } from '../../test/session';
import type { SuspensionJson } from './suspensions-api';
import { complaint, group, renderPanel, ROOT } from './test-fixtures';

const CLEO = { id: '300', login: 'cleo', name: 'Cleo', avatar_url: '', tag_id: null, role: null };

function suspension(overrides: Partial<SuspensionJson> = {}): SuspensionJson {
  return {
    id: '900',
    user: CLEO,
    reason: 'Spam posts after a warning',
    admin_id: '1',
    admin_login: 'root',
    suspended_at: new Date(Date.now() - 3600_000).toISOString(),
    ...overrides,
  };
}

/** The complaint about Cleo's post, and a server that remembers whether she is suspended. */
function complaintServer(answerSuspend?: () => Response) {
  const state = { suspended: false, bodies: [] as unknown[], lifted: 0 };
  server.use(
    http.get(api('/admin/reports/groups'), () => HttpResponse.json([group([complaint()])])),
    http.get(api('/admin/reports'), () => HttpResponse.json([])),
    http.get(api('/admin/users/300/suspend'), () =>
      HttpResponse.json(
        state.suspended ? { suspended: true, suspension: suspension() } : { suspended: false, suspension: null },
      ),
    ),
    http.post(api('/admin/users/300/suspend'), async ({ request }) => {
      state.bodies.push(await request.json());
      if (answerSuspend) return answerSuspend();
      state.suspended = true;
      return HttpResponse.json({ suspended: true, suspension: suspension() });
    }),
    http.delete(api('/admin/users/300/suspend'), () => {
      state.lifted += 1;
      state.suspended = false;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

async function openDetails() {
  const user = userEvent.setup();
  signedInAs(ROOT);
  renderPanel('/admin/c');
  const row = (await screen.findByText('Report #r1: Spam')).closest('li')!;
  await user.click(within(row).getByRole('button', { name: 'View Details' }));
  return { user, details: screen.getByRole('dialog', { name: 'Complaint Details' }) };
}

describe('Suspending from a complaint', () => {
  it('asks for a reason in a dialog, suspends, and offers to lift it', async () => {
    const state = complaintServer();
    const { user, details } = await openDetails();
    expect(await within(details).findByText('@cleo can sign in and post.')).toBeInTheDocument();

    await user.click(within(details).getByRole('button', { name: 'Suspend author' }));
    const ask = screen.getByRole('dialog', { name: 'Suspend @cleo?' });
    await user.click(within(ask).getByRole('button', { name: 'Suspend' }));
    expect(within(ask).getByRole('alert')).toHaveTextContent('Please give a reason for the suspension.');
    expect(state.bodies).toEqual([]);

    await user.type(within(ask).getByLabelText('Reason'), '  Spam posts after a warning ');
    await user.click(within(ask).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Suspend @cleo?' })).toBeNull());
    expect(state.bodies).toEqual([{ reason: 'Spam posts after a warning', report_id: 'r1' }]);
    expect(await screen.findByText('Account suspended: @cleo')).toBeInTheDocument();
    expect(await within(details).findByText('Spam posts after a warning')).toBeInTheDocument();
    expect(within(details).getByText('Suspended')).toBeInTheDocument();

    await user.click(within(details).getByRole('button', { name: 'Lift suspension' }));
    expect(await screen.findByText('Suspension lifted: @cleo')).toBeInTheDocument();
    expect(state.lifted).toBe(1);
    expect(await within(details).findByRole('button', { name: 'Suspend author' })).toBeInTheDocument();
  });

  it("keeps the reason dialog open with the server's words when it refuses", async () => {
    complaintServer(() =>
      HttpResponse.json(
        { detail: "An admin's account cannot be suspended. Revoke the admin role first." },
        { status: 409 },
      ),
    );
    const { user, details } = await openDetails();
    await user.click(await within(details).findByRole('button', { name: 'Suspend author' }));
    const ask = screen.getByRole('dialog', { name: 'Suspend @cleo?' });
    await user.type(within(ask).getByLabelText('Reason'), 'spam');
    await user.click(within(ask).getByRole('button', { name: 'Suspend' }));
    expect(await within(ask).findByRole('alert')).toHaveTextContent(
      "An admin's account cannot be suspended. Revoke the admin role first.",
    );
  });

  it('closes only the reason dialog on Escape', async () => {
    complaintServer();
    const { user, details } = await openDetails();
    await user.click(await within(details).findByRole('button', { name: 'Suspend author' }));
    expect(screen.getByRole('dialog', { name: 'Suspend @cleo?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Suspend @cleo?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Complaint Details' })).toBeInTheDocument();
  });
  it("offers to suspend a reported comment's author, not the post's", async () => {
    const asked: string[] = [];
    server.use(
      http.get(api('/admin/reports/groups'), () =>
        HttpResponse.json([
          group([
            complaint({
              comment_id: 'c1',
              comment: {
                id: 'c1',
                exists: true,
                content: 'buy followers',
                author: { id: '400', login: 'dan', name: 'Dan', avatar_url: '' },
              },
            }),
          ]),
        ]),
      ),
      http.get(api('/admin/reports'), () => HttpResponse.json([])),
      http.get(api('/admin/users/:id/suspend'), ({ params }) => {
        asked.push(String(params.id));
        return HttpResponse.json({ suspended: false, suspension: null });
      }),
    );
    const { details } = await openDetails();
    expect(await within(details).findByText('@dan can sign in and post.')).toBeInTheDocument();
    expect(asked).toEqual(['400']);
  });
});

describe('Suspended accounts', () => {
  it('lists them a page at a time and lifts one after asking', async () => {
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        suspension({
          id: String(900 - from - i),
          user: { ...CLEO, id: String(300 + from + i), login: `p${from + i}`, name: `P${from + i}` },
          reason: `r${from + i}`,
        }),
      );
    const asked: string[] = [];
    const lifted: string[] = [];
    server.use(
      http.get(api('/admin/users/suspended'), ({ request }) => {
        const search = new URL(request.url).search;
        asked.push(search);
        return HttpResponse.json(search.includes('before=') ? page(20, 2) : page(0, 20));
      }),
      http.delete(api('/admin/users/:id/suspend'), ({ params }) => {
        lifted.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signedInAs(ROOT);
    renderPanel('/admin/s');
    expect(await screen.findByRole('heading', { level: 1, name: 'Suspended accounts' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Suspended accounts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    const first = within(list).getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('P0 @p0');
    expect(first).toHaveTextContent('r0');
    expect(first).toHaveTextContent('Suspended by @root');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(22));
    expect(asked).toEqual(['?limit=20', '?limit=20&before=881']);
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();

    const row = within(list).getAllByRole('listitem')[21]!;
    await user.click(within(row).getByRole('button', { name: 'Lift suspension' }));
    const confirm = screen.getByRole('dialog', { name: "Lift @p21's suspension?" });
    await user.click(within(confirm).getByRole('button', { name: 'Lift' }));
    expect(await screen.findByText('Suspension lifted: @p21')).toBeInTheDocument();
    expect(lifted).toEqual(['321']);
  });

  it("says 'No suspended accounts' when there are none", async () => {
    server.use(http.get(api('/admin/users/suspended'), () => HttpResponse.json([])));
    signedInAs(ROOT);
    renderPanel('/admin/s');
    expect(await screen.findByText('No suspended accounts')).toBeInTheDocument();
  });
});
