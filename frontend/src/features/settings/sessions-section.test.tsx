import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { clearFarewell, peekFarewell } from '../../lib/session';
import { getToken } from '../../lib/token-storage';
import type { SessionJson } from '../auth';
import { SessionsSection } from './sessions-section';

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const here: SessionJson = {
  id: 'here',
  device: 'Firefox on Linux',
  created_at: minutesAgo(600),
  last_seen_at: minutesAgo(0),
  current: true,
};
const phone: SessionJson = {
  id: 'phone',
  device: 'Safari on iPhone',
  created_at: minutesAgo(3000),
  last_seen_at: minutesAgo(5),
  current: false,
};
const laptop: SessionJson = {
  id: 'laptop',
  device: 'Chrome on Windows',
  created_at: minutesAgo(9000),
  last_seen_at: minutesAgo(3 * 60),
  current: false,
};

function sessionsServer(answer: () => Response | Promise<Response>) {
  const calls = { get: 0 };
  server.use(
    http.get(api('/authorization/sessions'), () => {
      calls.get += 1;
      return answer();
    }),
  );
  return calls;
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<SessionsSection />, { route: '/settings', path: '/settings' });
}

const rowOf = async (device: string) => (await screen.findByText(device)).closest('li')!;

describe('SessionsSection', () => {
  it('is loaded when Settings opens, with "This device" on the current one and Sign out on the others', async () => {
    const calls = sessionsServer(() => HttpResponse.json([phone, here, laptop]));
    renderSection();
    expect(await screen.findByText('Loading sessions...')).toBeInTheDocument();
    const rows = await screen.findAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('p')?.textContent)).toEqual([
      'Firefox on LinuxThis device',
      'Safari on iPhone',
      'Chrome on Windows',
    ]);
    const current = rows[0]!;
    expect(within(current).getByText('This device')).toBeInTheDocument();
    expect(within(current).getByText('Last active just now')).toBeInTheDocument();
    expect(within(current).queryByRole('button')).toBeNull();
    expect(within(rows[1]!).getByText('Last active 5m ago')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Sign out Safari on iPhone' })).toBeEnabled();
    expect(within(rows[2]!).getByText('Last active 3h ago')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('This device')).toBeNull();
    expect(calls.get).toBe(1);
  });

  it('shows this device and the four newest, the rest behind "Show all"', async () => {
    const others: SessionJson[] = Array.from({ length: 24 }, (_, i) => ({
      ...phone,
      id: `other-${i}`,
      device: `Browser ${i + 1}`,
      last_seen_at: minutesAgo(i + 1),
    }));
    sessionsServer(() => HttpResponse.json([...others, here]));
    renderSection();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const names = () => within(list).getAllByRole('listitem').map((row) => row.querySelector('p')?.textContent);
    expect(names()).toEqual(['Firefox on LinuxThis device', 'Browser 1', 'Browser 2', 'Browser 3', 'Browser 4']);
    const more = screen.getByRole('button', { name: 'Show all 25 sessions' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(names()).toHaveLength(25);
    expect(names()[24]).toBe('Browser 24');
    await userEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(names()).toHaveLength(5);
  });

  it('has no "Show all" when every session shows', async () => {
    sessionsServer(() => HttpResponse.json([phone, here, laptop]));
    renderSection();
    await screen.findByText('Chrome on Windows');
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('signs one device out: DELETE, "Signing out..." meanwhile, then the list is asked again', async () => {
    sessionsServer(() => HttpResponse.json([here, phone, laptop]));
    const deleted: string[] = [];
    let finish: () => void = () => {};
    server.use(
      http.delete(api('/authorization/sessions/:id'), async ({ params }) => {
        deleted.push(String(params.id));
        await new Promise<void>((r) => (finish = r));
        return HttpResponse.json({ message: 'Session ended' });
      }),
    );
    renderSection();
    const row = await rowOf('Safari on iPhone');
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Sign out Safari on iPhone' }));
    expect(within(row).getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign out Chrome on Windows' })).toBeEnabled();
    const again = sessionsServer(() => HttpResponse.json([here, laptop]));
    finish();
    await waitFor(() => expect(screen.queryByText('Safari on iPhone')).toBeNull());
    expect(deleted).toEqual(['phone']);
    expect(again.get).toBe(1);
    expect(screen.getByText('Chrome on Windows')).toBeInTheDocument();
  });

  it('a session that had already ended (404) just leaves the list', async () => {
    sessionsServer(() => HttpResponse.json([here, phone]));
    server.use(
      http.delete(api('/authorization/sessions/:id'), () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })),
    );
    renderSection();
    const row = await rowOf('Safari on iPhone');
    sessionsServer(() => HttpResponse.json([here]));
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Sign out Safari on iPhone' }));
    await waitFor(() => expect(screen.queryByText('Safari on iPhone')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so under the row when signing a device out fails, and keeps it', async () => {
    sessionsServer(() => HttpResponse.json([here, phone]));
    server.use(
      http.delete(api('/authorization/sessions/:id'), () =>
        HttpResponse.json({ detail: 'Try again later' }, { status: 503 }),
      ),
    );
    renderSection();
    const row = await rowOf('Safari on iPhone');
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Sign out Safari on iPhone' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('Failed to sign out that device: Try again later');
    expect(within(row).getByRole('button', { name: 'Sign out Safari on iPhone' })).toBeEnabled();
  });

  it('a failed load says why and offers Try Again', async () => {
    sessionsServer(() => HttpResponse.json({}, { status: 503, statusText: 'Service Unavailable' }));
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load sessions: Service Unavailable');
    sessionsServer(() => HttpResponse.json([here]));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Firefox on Linux')).toBeInTheDocument();
  });

  it('a 401 on the list ends the stored session', async () => {
    sessionsServer(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    renderSection();
    await waitFor(() => expect(getToken()).toBeNull());
  });

  it('"Sign out everywhere" asks first; Cancel does nothing', async () => {
    sessionsServer(() => HttpResponse.json([here, phone]));
    const ended = vi.fn();
    server.use(http.post(api('/authorization/logout-all'), () => (ended(), HttpResponse.json({}))));
    renderSection();
    await screen.findByText('Firefox on Linux');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere' });
    expect(dialog).toHaveAccessibleDescription('Sign out on every device, this one included?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ended).not.toHaveBeenCalled();
    expect(getToken()).toBe('test-token');
  });

  it('"Sign out everywhere" confirmed: logout-all, the token forgotten, then /sign-in with the news', async () => {
    sessionsServer(() => HttpResponse.json([here, phone]));
    let auth: string | null = null;
    let finish: () => void = () => {};
    server.use(
      http.post(api('/authorization/logout-all'), async ({ request }) => {
        auth = request.headers.get('authorization');
        await new Promise<void>((r) => (finish = r));
        return HttpResponse.json({ message: 'Signed out everywhere' });
      }),
    );
    renderSection();
    await screen.findByText('Firefox on Linux');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(within(dialog).getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    finish();
    await waitFor(() => expect(currentLocation()).toBe('/sign-in'));
    expect(auth).toBe('Bearer test-token');
    expect(getToken()).toBeNull();
    expect(peekFarewell()).toEqual({ text: 'You were signed out on every device.', tone: 'info' });
    clearFarewell();
  });

  it('"Sign out everywhere" failing keeps everything and says why', async () => {
    sessionsServer(() => HttpResponse.json([here, phone]));
    server.use(http.post(api('/authorization/logout-all'), () => HttpResponse.error()));
    renderSection();
    await screen.findByText('Firefox on Linux');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Sign out everywhere' })).getByRole('button', {
        name: 'Sign out everywhere',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to sign out everywhere: Network error');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentLocation()).toBe('/settings');
    expect(getToken()).toBe('test-token');
  });
});
