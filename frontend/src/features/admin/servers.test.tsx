import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { signedInAs } from '../../test/session';
import type { BlockedDomainJson } from './servers-api';
import { renderPanel, ROOT } from './test-fixtures';

const PATH = '/admin/federation/blocked-domains';

function blocked(domain: string): BlockedDomainJson {
  return { domain, admin_login: 'root', blocked_at: new Date(Date.now() - 3600_000).toISOString() };
}

/** A server that keeps its blocked servers, and the bodies of the blocks it was sent. */
function federatingServer(first: BlockedDomainJson[] = []) {
  const state = { list: [...first], bodies: [] as unknown[], lifted: [] as string[] };
  server.use(
    http.get(api(PATH), () => HttpResponse.json(state.list)),
    http.post(api(PATH), async ({ request }) => {
      const body = (await request.json()) as { domain: string };
      state.bodies.push(body);
      state.list.push(blocked(body.domain));
      return HttpResponse.json({ domain: body.domain, accounts_removed: 2 }, { status: 201 });
    }),
    http.delete(api(`${PATH}/:domain`), ({ params }) => {
      state.lifted.push(String(params.domain));
      state.list = state.list.filter((b) => b.domain !== params.domain);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

describe('/admin/f, other servers', () => {
  it('blocks a server once asked, and says how many accounts went', async () => {
    const state = federatingServer();
    const user = userEvent.setup();
    signedInAs(ROOT);
    renderPanel('/admin/f');
    expect(await screen.findByText('No blocked servers')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Other servers' })).toHaveAttribute('aria-current', 'page');
    await user.type(screen.getByLabelText('Server to block'), ' spam.example ');
    await user.click(screen.getByRole('button', { name: 'Block server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block spam.example?' });
    expect(state.bodies).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('spam.example blocked; 2 accounts removed')).toBeInTheDocument();
    expect(state.bodies).toEqual([{ domain: 'spam.example' }]);
    const list = await screen.findByRole('list', { name: 'Blocked servers' });
    expect(within(list).getByText('spam.example')).toBeInTheDocument();
    expect(screen.getByLabelText('Server to block')).toHaveValue('');
  });

  it('lifts a block once asked', async () => {
    const state = federatingServer([blocked('evil.example')]);
    const user = userEvent.setup();
    signedInAs(ROOT);
    renderPanel('/admin/f');
    await user.click(await screen.findByRole('button', { name: 'Lift block: evil.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift the block on evil.example?' });
    await user.click(within(dialog).getByRole('button', { name: 'Lift' }));
    await waitFor(() => expect(state.lifted).toEqual(['evil.example']));
    expect(await screen.findByText('No blocked servers')).toBeInTheDocument();
  });

  it('shows the server’s reason when a block is refused', async () => {
    federatingServer();
    server.use(
      http.post(api(PATH), () =>
        HttpResponse.json({ detail: '"not a server" is not a server\'s name (like social.example).' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    signedInAs(ROOT);
    renderPanel('/admin/f');
    await user.type(await screen.findByLabelText('Server to block'), 'not a server');
    await user.click(screen.getByRole('button', { name: 'Block server' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Block not a server?' })).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('"not a server" is not a server\'s name (like social.example).')).toBeInTheDocument();
  });

  it('says federation is off when the server has it off', async () => {
    server.use(http.get(api(PATH), () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })));
    signedInAs(ROOT);
    renderPanel('/admin/f');
    expect(await screen.findByText(/Federation is off on this server/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Server to block')).not.toBeInTheDocument();
  });
});
