import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { BASE_PATH } from '../../lib/config';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { FAKE_PUSH_KEYS, fakePush, type FakePush } from '../../test/push';
import { suggestedName } from './passkeys-api';
import type { PushDevice } from './push-api';
import { PUSH_KIND_LABELS, PUSH_MESSAGES, PushSection } from './push-section';

/** A 65-byte uncompressed P-256 point; its base64url has '-' and '_' in it, as real keys do. */
const KEY_BYTES = [4, ...Array.from({ length: 64 }, (_, i) => 255 - i * 3)];
const KEY = btoa(String.fromCharCode(...KEY_BYTES)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const HERE = 'https://push.example.test/send/here';
const ALL_KINDS = { mentions: true, comments: true, listens: true, likes: true, reposts: true };

function device(id: string, fields: Partial<PushDevice> = {}): PushDevice {
  return {
    id,
    name: 'Firefox on Android',
    endpoint: `https://push.example.test/send/${id}`,
    this_session: false,
    created_at: '2026-11-02T10:00:00Z',
    last_sent_at: null,
    kinds: { ...ALL_KINDS },
    ...fields,
  };
}

/** A server holding one account's devices, as the real one answers; the calls it was sent. */
function pushServer(devices: PushDevice[] = [], { refuseAdding }: { refuseAdding?: string } = {}) {
  const sent: Array<{ method: string; path: string; body?: unknown }> = [];
  server.use(
    http.get(api('/account/push'), () => HttpResponse.json({ public_key: KEY, devices })),
    http.post(api('/account/push/devices'), async ({ request }) => {
      const body = (await request.json()) as { endpoint: string; name: string };
      sent.push({ method: 'POST', path: '/account/push/devices', body });
      if (refuseAdding) return HttpResponse.json({ detail: refuseAdding }, { status: 400 });
      const added = device('7', { name: body.name, endpoint: body.endpoint, this_session: true });
      devices.push(added);
      return HttpResponse.json(added, { status: 201 });
    }),
    http.patch(api('/account/push/devices/:id'), async ({ request, params }) => {
      const body = (await request.json()) as { kinds: Partial<PushDevice['kinds']> };
      sent.push({ method: 'PATCH', path: `/account/push/devices/${String(params.id)}`, body });
      const changed = devices.find((d) => d.id === params.id);
      if (!changed) return HttpResponse.json({ detail: 'No such device' }, { status: 404 });
      Object.assign(changed.kinds, body.kinds);
      return HttpResponse.json(changed);
    }),
    http.delete(api('/account/push/devices/:id'), ({ params }) => {
      sent.push({ method: 'DELETE', path: `/account/push/devices/${String(params.id)}` });
      devices.splice(
        devices.findIndex((d) => d.id === params.id),
        1,
      );
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(api('/account/push/devices/:id/test'), ({ params }) => {
      sent.push({ method: 'POST', path: `/account/push/devices/${String(params.id)}/test` });
      return HttpResponse.json({ message: 'A test notification is on its way.' }, { status: 202 });
    }),
  );
  return sent;
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<PushSection />, { route: '/settings', path: '/settings' });
}

const turnOnButton = () => screen.findByRole('button', { name: PUSH_MESSAGES.turnOn });

let browser: FakePush | undefined;
afterEach(() => {
  browser?.restore();
  browser = undefined;
});

describe('PushSection', () => {
  it('turns notifications on here: asks, subscribes with the server key, sends the subscription', async () => {
    const sent = pushServer();
    browser = fakePush({ endpoint: HERE });
    renderSection();
    const user = userEvent.setup();
    expect(await screen.findByText(PUSH_MESSAGES.none)).toBeInTheDocument();

    await user.click(await turnOnButton());
    const item = await screen.findByTestId('push-device');
    expect(item).toHaveTextContent(PUSH_MESSAGES.thisDevice);
    expect(item).toHaveTextContent('Added');
    expect(item).not.toHaveTextContent('Last notified');
    expect(browser.asked).toBe(1);
    // The app's base, /app in the build.
    expect(browser.registered).toEqual([{ url: `${BASE_PATH}/sw.js`, scope: `${BASE_PATH}/` }]);
    expect(browser.subscribed).toEqual([{ userVisibleOnly: true, applicationServerKey: KEY_BYTES }]);
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/account/push/devices',
        body: { endpoint: HERE, keys: FAKE_PUSH_KEYS, name: suggestedName(navigator.userAgent) },
      },
    ]);
    // This browser is on now: no second button.
    expect(screen.queryByRole('button', { name: PUSH_MESSAGES.turnOn })).not.toBeInTheDocument();
    expect(within(item).getByRole('group', { name: `Notify ${suggestedName(navigator.userAgent)} about` })).toBeInTheDocument();
  });

  it('saves a kind as soon as its box changes', async () => {
    const sent = pushServer([device('1', { endpoint: HERE, this_session: true, name: 'Chrome on Linux' })]);
    browser = fakePush({ permission: 'granted', endpoint: HERE, subscribed: true });
    renderSection();
    const user = userEvent.setup();
        const group = await screen.findByRole('group', { name: 'Notify Chrome on Linux about' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')?.textContent)).toEqual(Object.values(PUSH_KIND_LABELS));
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);

    await user.click(within(group).getByLabelText('Likes'));
    expect(within(group).getByLabelText('Likes')).not.toBeChecked();
    await user.click(within(group).getByLabelText('New listeners'));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { method: 'PATCH', path: '/account/push/devices/1', body: { kinds: { likes: false } } },
      { method: 'PATCH', path: '/account/push/devices/1', body: { kinds: { listens: false } } },
    ]);
    await waitFor(() => expect(within(group).getByLabelText('New listeners')).not.toBeChecked());
    expect(within(group).getByLabelText('Likes')).not.toBeChecked();
    expect(within(group).getByLabelText('Mentions')).toBeChecked();
  });

  it('sends a test to a device and says it is on its way', async () => {
    const sent = pushServer([device('2', { last_sent_at: new Date(Date.now() - 3 * 60_000).toISOString() })]);
    browser = fakePush({ permission: 'granted', endpoint: HERE });
    renderSection();
    const user = userEvent.setup();
    const item = await screen.findByTestId('push-device');
    expect(item).toHaveTextContent('Last notified 3m ago');
    expect(item).not.toHaveTextContent(PUSH_MESSAGES.thisDevice);

    await user.click(within(item).getByRole('button', { name: 'Send a test to Firefox on Android' }));
    expect(await within(item).findByText(PUSH_MESSAGES.sent)).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'POST', path: '/account/push/devices/2/test' }]);
  });

  it("turns devices off; this browser's own subscription ends with its device", async () => {
    const sent = pushServer([device('1', { endpoint: HERE, this_session: true, name: 'Chrome on Linux' }), device('2')]);
    browser = fakePush({ permission: 'granted', endpoint: HERE, subscribed: true });
    renderSection();
    const user = userEvent.setup();
    const [here, other] = await screen.findAllByTestId('push-device');
    expect(here).toHaveTextContent(PUSH_MESSAGES.thisDevice);
    expect(screen.queryByRole('button', { name: PUSH_MESSAGES.turnOn })).not.toBeInTheDocument();

    await user.click(within(other!).getByRole('button', { name: 'Turn off Firefox on Android' }));
    await waitFor(() => expect(screen.getAllByTestId('push-device')).toHaveLength(1));
    expect(browser.unsubscribed).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Turn off Chrome on Linux' }));
    expect(await screen.findByText(PUSH_MESSAGES.none)).toBeInTheDocument();
    expect(sent).toEqual([
      { method: 'DELETE', path: '/account/push/devices/2' },
      { method: 'DELETE', path: '/account/push/devices/1' },
    ]);
    expect(browser.unsubscribed).toBe(1);
    expect(browser.endpoint()).toBeNull();
    // Off here: it can be turned on again.
    expect(await turnOnButton()).toBeInTheDocument();
  });

  it('says so when the browser cannot show notifications, and still lists the other devices', async () => {
    pushServer([device('2')]);
    renderSection();
    expect(await screen.findByText(PUSH_MESSAGES.unsupported)).toBeInTheDocument();
    expect(await screen.findByTestId('push-device')).toHaveTextContent('Firefox on Android');
    expect(screen.queryByRole('button', { name: PUSH_MESSAGES.turnOn })).not.toBeInTheDocument();
  });

  it('says so when notifications are blocked, already or when asked', async () => {
    pushServer();
    browser = fakePush({ permission: 'denied' });
    const { unmount } = renderSection();
    expect(await screen.findByText(PUSH_MESSAGES.blocked)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: PUSH_MESSAGES.turnOn })).not.toBeInTheDocument();
    unmount();
    browser.restore();

    const sent = pushServer();
    browser = fakePush({ permission: 'default', answer: 'denied' });
    renderSection();
    await userEvent.setup().click(await turnOnButton());
    expect(await screen.findByText(PUSH_MESSAGES.blocked)).toBeInTheDocument();
    expect(browser.asked).toBe(1);
    expect(browser.subscribed).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal and ends the subscription it will not use", async () => {
    const refusal = 'You can turn on notifications on at most 20 devices. Remove one first.';
    pushServer([], { refuseAdding: refusal });
    browser = fakePush({ endpoint: HERE });
    renderSection();
    await userEvent.setup().click(await turnOnButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(browser.unsubscribed).toBe(1);
    expect(browser.endpoint()).toBeNull();
    expect(await turnOnButton()).toBeEnabled();
  });

  it('says what went wrong when a change is refused', async () => {
    pushServer([device('1', { endpoint: HERE, this_session: true })]);
    server.use(http.patch(api('/account/push/devices/1'), () => HttpResponse.json({ detail: 'Slow down' }, { status: 429 })));
    browser = fakePush({ permission: 'granted', endpoint: HERE, subscribed: true });
    renderSection();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Reposts'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Slow down');
    // The box shows what the server kept.
    expect(screen.getByLabelText('Reposts')).toBeChecked();
  });
});
