import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import type { UserCardJson } from '../profiles';
import { BlockedUsersSection } from './blocked-users-section';

const ben: UserCardJson = { id: '200', name: 'Ben', login: 'ben', avatar_url: '', tag_id: null };
const cleo: UserCardJson = { id: '300', name: 'Cleo', login: 'cleo', avatar_url: '', tag_id: null };

function blocksServer(answer: () => Response | Promise<Response>) {
  const calls = { get: 0 };
  server.use(
    http.get(api('/profiles/blocks'), () => {
      calls.get += 1;
      return answer();
    }),
  );
  return calls;
}

async function expand() {
  const user = userEvent.setup();
  const toggle = screen.getByRole('button', { name: /Blocked users/ });
  await user.click(toggle);
  return { user, toggle };
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<BlockedUsersSection />, { route: '/settings', path: '/settings' });
}

describe('BlockedUsersSection', () => {
  it('is collapsed and asks nothing until first expanded', async () => {
    const calls = blocksServer(() => HttpResponse.json([ben]));
    renderSection();
    const toggle = screen.getByRole('button', { name: /Blocked users/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.get).toBe(0);
    await expand();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByText('Ben')).toBeVisible();
    expect(calls.get).toBe(1);
  });

  it("reads 'Loading blocked users...' while loading", async () => {
    let answer: () => void = () => {};
    blocksServer(async () => {
      await new Promise<void>((r) => (answer = r));
      return HttpResponse.json([]);
    });
    renderSection();
    await expand();
    expect(await screen.findByText('Loading blocked users...')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('No blocked users')).toBeInTheDocument();
  });

  it('lists each blocked user with avatar, name, a link to /user/{id} and Unblock', async () => {
    blocksServer(() => HttpResponse.json([ben, cleo]));
    renderSection();
    await expand();
    const row = (await screen.findByText('Ben')).closest('li')!;
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/user/200');
    expect(within(row).getByText('@ben')).toBeInTheDocument();
    expect(row.querySelector('img')).toHaveAttribute('data-fallback', 'true');
    expect(within(row).getByRole('button', { name: 'Unblock Ben' })).toBeEnabled();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('collapses and expands again without asking twice', async () => {
    const calls = blocksServer(() => HttpResponse.json([ben]));
    renderSection();
    const { user, toggle } = await expand();
    await screen.findByText('Ben');
    await user.click(toggle);
    expect(screen.getByText('Ben')).not.toBeVisible();
    await user.click(toggle);
    expect(screen.getByText('Ben')).toBeVisible();
    expect(calls.get).toBe(1);
  });

  it("says 'Please sign in to view blocked users' on a 401", async () => {
    blocksServer(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    renderSection();
    await expand();
    expect(await screen.findByRole('alert')).toHaveTextContent('Please sign in to view blocked users');
  });

  it("says 'Failed to fetch blocked users: {statusText}' otherwise", async () => {
    blocksServer(() => HttpResponse.json({ detail: 'x' }, { status: 503, statusText: 'Service Unavailable' }));
    renderSection();
    await expand();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch blocked users: Service Unavailable');
  });

  it("unblocks: 'Unblocking...' and disabled meanwhile, then the row goes", async () => {
    blocksServer(() => HttpResponse.json([ben, cleo]));
    let finish: () => void = () => {};
    const deleted: string[] = [];
    server.use(
      http.delete(api('/profiles/blocks/:id'), async ({ params }) => {
        deleted.push(String(params.id));
        await new Promise<void>((r) => (finish = r));
        return HttpResponse.json({ message: 'User unblocked' });
      }),
    );
    renderSection();
    const { user } = await expand();
    const row = (await screen.findByText('Ben')).closest('li')!;
    await user.click(within(row).getByRole('button', { name: 'Unblock Ben' }));
    expect(within(row).getByRole('button', { name: 'Unblocking...' })).toBeDisabled();
    // The other row is not affected.
    expect(screen.getByRole('button', { name: 'Unblock Cleo' })).toBeEnabled();
    // The list the server gives after the unblock no longer has Ben.
    blocksServer(() => HttpResponse.json([cleo]));
    finish();
    await waitFor(() => expect(screen.queryByText('Ben')).toBeNull());
    expect(screen.getByText('Cleo')).toBeInTheDocument();
    expect(deleted).toEqual(['200']);
  });

  it("says 'Failed to unblock user: {message}' under the row and keeps it", async () => {
    blocksServer(() => HttpResponse.json([ben]));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    server.use(
      http.delete(api('/profiles/blocks/:id'), () => HttpResponse.json({ detail: 'User not found' }, { status: 404 })),
    );
    renderSection();
    const { user } = await expand();
    await user.click(await screen.findByRole('button', { name: 'Unblock Ben' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to unblock user: User not found');
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Unblock Ben' })).toBeEnabled();
  });
});
