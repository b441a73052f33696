/**
 * Web Push (issue 36) in Chromium: notifications turned on for this device in Settings (the
 * real service worker, the permission, the subscription kept by the server), a like and a
 * comment pushed by the server through a real push service (web-push-testing: VAPID checked,
 * payload decrypted), the kinds chosen honoured, the pushed message shown by the service worker
 * and its click opening the post, a test sent, and the device turned off.
 */
import type { CDPSession, Page, Worker } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, ownClientAddress, signInThroughAddress, signedUpAccount } from './support/accounts';
import { watchCsp } from './support/csp';
import { pushThroughService, startPushService } from './support/push-service';
import { startServer } from './support/server';

/** What the tests reach in the service worker's global scope. */
type WorkerScope = EventTarget & {
  registration: ServiceWorkerRegistration;
  NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
};

/** The service worker of the app, once it runs. */
async function appWorker(page: Page): Promise<Worker> {
  const context = page.context();
  const running = context.serviceWorkers().find((w) => w.url().endsWith('/app/sw.js'));
  return running ?? (await context.waitForEvent('serviceworker', (w) => w.url().endsWith('/app/sw.js')));
}

/** The id CDP knows the app's service worker registration by. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.endsWith('/app/') && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

test('web push: a device turned on in Settings is told of what it chose, and a click opens it', async ({
  page,
  context,
  request,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  const server = await startServer({ name: `web-push-${project}` });
  const service = await startPushService();
  try {
    const csp = watchCsp(page);
    const subscriptions = await pushThroughService(context, service);
    await context.grantPermissions(['notifications'], { origin: server.url });
    const ana = await signedUpAccount(request, server, uniqueEmail('push-ana', project), 'Ana Push');
    const bob = await signedUpAccount(request, server, uniqueEmail('push-bob', project), 'Bob Push');
    const carl = await signedUpAccount(request, server, uniqueEmail('push-carl', project), 'Carl Push');
    const post = await lyricsPost(request, server.url, ana.token, 'Night song');
    await ownClientAddress(context);
    await signInThroughAddress(page, server.appUrl, ana.token);
    await expect(page).toHaveURL(`${server.appUrl}/home`);

    // Turned on in Settings.
    await page.goto(`${server.appUrl}/settings`);
    const section = page.locator('section[aria-labelledby="push-title"]');
    await expect(section.getByRole('heading', { name: 'Notifications on your devices' })).toBeVisible();
    await section.getByRole('button', { name: 'Turn on notifications on this device' }).click();
    const device = section.getByTestId('push-device');
    await expect(device).toHaveCount(1);
    await expect(device).toContainText('This device');
    await expect(section.getByRole('button', { name: 'Turn on notifications on this device' })).toHaveCount(0);
    expect(subscriptions).toHaveLength(1);
    const hash = subscriptions[0]!;
    const worker = await appWorker(page);
    await device.scrollIntoViewIfNeeded();
    await shot('web-push-settings');

    // Bob likes Ana's post: the server pushes it, encrypted and signed, to her device.
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect((await request.post(`${server.url}/posts/${post}/like`, { headers: bearer(bob.token) })).ok()).toBe(true);
    await expect.poll(() => service.received(hash), { timeout: 30_000 }).toHaveLength(1);
    const [liked] = (await service.received(hash)).map((m) => JSON.parse(m) as { title: string; url: string; tag: string });
    expect(liked).toMatchObject({ title: 'Bob Push liked your post', url: `/app/post/${post}` });

    // Likes off: Carl's like is not pushed, Bob's comment is.
    await device.getByRole('checkbox', { name: 'Likes' }).uncheck();
    await expect(device.getByRole('checkbox', { name: 'Likes' })).not.toBeChecked();
    await expect
      .poll(async () => {
        const r = await request.get(`${server.url}/account/push`, { headers: bearer(ana.token) });
        return ((await r.json()) as { devices: { kinds: { likes: boolean } }[] }).devices[0]?.kinds.likes;
      })
      .toBe(false);
    await request.post(`${server.url}/posts/${post}/like`, { headers: bearer(carl.token) });
    await request.post(`${server.url}/posts/${post}/comments`, { headers: bearer(bob.token), data: { content: 'lovely chords' } });
    await expect.poll(() => service.received(hash), { timeout: 30_000 }).toHaveLength(2);
    const commented = JSON.parse((await service.received(hash))[1]!) as { title: string; body: string; url: string; tag: string };
    expect(commented).toMatchObject({ title: 'Bob Push commented on your post', body: 'lovely chords' });

    // The pushed message, handed to the page's service worker as Chromium hands what its push
    // service delivers: shown as a notification; clicked, the post opens.
    await page.goto(`${server.appUrl}/home`);
    const cdp = await context.newCDPSession(page);
    const id = await registrationId(cdp);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: id,
      data: (await service.received(hash))[1]!,
    });
    await expect
      .poll(() =>
        worker.evaluate(async () => {
          const { registration } = self as unknown as WorkerScope;
          return (await registration.getNotifications()).map((n) => [n.title, n.body]);
        }),
      )
      .toEqual([['Bob Push commented on your post', 'lovely chords']]);
    await worker.evaluate(async (tag) => {
      const scope = self as unknown as WorkerScope;
      const [shown] = await scope.registration.getNotifications({ tag });
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: shown! }));
    }, commented.tag);
    await expect(page).toHaveURL(`${server.appUrl}/post/${post}`);
    await expect(page.getByText('lovely chords')).toBeVisible();

    // A test, then turned off.
    await page.goto(`${server.appUrl}/settings`);
    await device.getByRole('button', { name: /^Send a test to / }).click();
    await expect(device.getByText('Sent. It should arrive in a moment.')).toBeVisible();
    await expect.poll(() => service.received(hash), { timeout: 30_000 }).toHaveLength(3);
    expect(JSON.parse((await service.received(hash))[2]!)).toMatchObject({ body: 'Notifications are on for this device.' });
    await device.getByRole('button', { name: /^Turn off / }).click();
    await expect(device).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();
    const left = await request.get(`${server.url}/account/push`, { headers: bearer(ana.token) });
    expect(((await left.json()) as { devices: unknown[] }).devices).toEqual([]);
    expect(csp).toEqual([]);
  } finally {
    await service.stop();
    await server.stop();
  }
});
