/**
 * Notifications and reports against the real server. Bea comments on Ada's post mentioning her,
 * listens to her and likes the post: Ada's badge rises with each while she looks at the feed (the
 * server's stream, no reload), in both of her tabs, which share one stream. She opens
 * /notifications, clicks the mention's row, lands on Bea's profile, and coming back finds the row
 * read; the like's words open the post; Mark all as read does the rest. Then Ada reports Bea's
 * post from its card's menu as Other, with words, and is thanked.
 */
import type { BrowserContext, Page, Request, TestInfo } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { watchCsp } from './support/csp';
import { watchDialogs } from './support/dialogs';

/** The Notifications link of whichever bar this width shows (side bar or bottom bar). */
const notificationsLink = (page: Page) => page.getByRole('link', { name: /^Notifications/ });

/**
 * The requests to /notifications/stream of every tab of the context: how many were made, and how
 * many are still open (an event stream finishes only when it closes).
 */
function watchStreams(context: BrowserContext) {
  const open = new Set<Request>();
  let made = 0;
  const isStream = (request: Request) => new URL(request.url()).pathname === '/notifications/stream';
  context.on('request', (request) => {
    if (!isStream(request)) return;
    made += 1;
    open.add(request);
  });
  context.on('requestfinished', (request) => open.delete(request));
  context.on('requestfailed', (request) => open.delete(request));
  return { made: () => made, open: () => open.size };
}

function tagOf(testInfo: TestInfo): string {
  return `${testInfo.project.name}-${Math.random().toString(36).slice(2, 6)}`;
}

test('a mention raises the badge live; the row opens the profile and stays read; a post is reported', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const name = testInfo.project.name;
  const ada = await signedUpAccount(request, server, uniqueEmail('ada', name), 'Ada Author');
  const bea = await signedUpAccount(request, server, uniqueEmail('bea', name), 'Bea Commenter');
  const tag = tagOf(testInfo);
  const adaPost = await lyricsPost(request, server.url, ada.token, `Ada sings ${tag}`);
  await lyricsPost(request, server.url, bea.token, `Bea sings ${tag}`);

  const streams = watchStreams(page.context());
  await signInThroughAddress(page, server.appUrl, ada.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications');
  await expect.poll(streams.open).toBe(1);
  // Ada opens a second tab: it hears the first tab's stream instead of opening its own (over
  // HTTP/1.1 a browser opens 6 connections to a host, and every tab's stream kept one).
  const tab = await page.context().newPage();
  const tabCsp = watchCsp(tab);
  const tabDialogs = watchDialogs(tab);
  await tab.goto(`${server.appUrl}/home`);
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications');

  // Bea comments on Ada's post, mentioning her: the badge rises with no reload.
  const comment = await request.post(`${server.url}/posts/${adaPost}/comments`, {
    headers: { Authorization: `Bearer ${bea.token}` },
    data: { content: `@${ada.login} nice riff ${tag}` },
  });
  expect(comment.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 1 unread', { timeout: 15_000 });
  await expect(notificationsLink(page).getByTestId('unread-badge')).toHaveAttribute('data-count', '1');
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications, 1 unread');
  // She also starts listening to Ada and likes the post: two more, each as it happens.
  const listen = await request.post(`${server.url}/profiles/listening/${ada.id}`, {
    headers: { Authorization: `Bearer ${bea.token}` },
  });
  expect(listen.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 2 unread');
  const like = await request.post(`${server.url}/posts/${adaPost}/like`, { headers: { Authorization: `Bearer ${bea.token}` } });
  expect(like.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 3 unread');
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications, 3 unread');
  await shot('notifications-badge');
  // One stream served both tabs.
  expect(streams.made()).toBe(1);
  expect(streams.open()).toBe(1);

  await notificationsLink(page).click();
  await expect(page).toHaveURL(`${server.appUrl}/notifications`);
  const row = page.locator('[data-read][data-type="mention"]');
  await expect(row.getByRole('link', { name: bea.login, exact: true })).toHaveAttribute('href', new RegExp(`/user/${bea.id}$`));
  await expect(row).toHaveAttribute('data-read', 'false');
  await expect(row.getByRole('link', { name: /^mentioned you in a comment/ })).toHaveAttribute(
    'href',
    new RegExp(`/post/${adaPost}$`),
  );
  await expect(row.locator('time')).toHaveText('just now');
  const rows = page.locator('[data-read]');
  await expect(rows).toHaveCount(3);
  await expect.poll(() => rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-type')))).toEqual([
    'other',
    'listening',
    'mention',
  ]);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeVisible();
  await shot('notifications-list');

  // A click on the row (not on a link) marks it read and opens Bea's profile.
  await row.locator('time').click();
  await expect(page).toHaveURL(`${server.appUrl}/user/${bea.id}`);
  await expect(page.getByText(`@${bea.login}`).first()).toBeVisible();
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 2 unread');
  await shot('notifications-sender-profile');

  await page.goBack();
  await expect(page).toHaveURL(`${server.appUrl}/notifications`);
  await expect(row).toHaveAttribute('data-read', 'true');
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications, 2 unread');
  // Still read after a reload: the server has it. The reload ends the first tab's stream; the
  // second tab takes over with a stream of its own, and the reloaded page listens to it.
  await page.reload();
  await expect(row).toHaveAttribute('data-read', 'true');
  await expect(page.locator('[data-read="false"]')).toHaveCount(2);
  await expect.poll(streams.made).toBe(2);
  await expect.poll(streams.open).toBe(1);
  await shot('notifications-read');

  // The like's words open the post it is about, and mark it read.
  const liked = page.locator('[data-read][data-type="other"]');
  await expect(liked).toHaveAttribute('data-read', 'false');
  await liked.getByRole('link', { name: 'liked your post' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/post/${adaPost}`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications, 1 unread');
  await page.goBack();
  await expect(page).toHaveURL(`${server.appUrl}/notifications`);
  await expect(liked).toHaveAttribute('data-read', 'true');

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.locator('[data-read="false"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications');
  await expect(notificationsLink(tab)).toHaveAccessibleName('Notifications');
  expect(streams.open()).toBe(1);
  await shot('notifications-all-read');
  expect(tabDialogs).toEqual([]);
  expect(tabCsp).toEqual([]);
  await tab.close();

  // Ada reports Bea's post from its card (on Bea's profile: the shared feed moves as other
  // journeys post): Other, with words.
  await page.goto(`${server.appUrl}/user/${bea.id}`);
  const card = page.locator('article').filter({ hasText: `Bea sings ${tag}` });
  await card.getByRole('button', { name: 'Post options' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await shot('report-menu');
  await page.getByRole('menuitem', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report post' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Submit report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select or enter a reason.');
  await dialog.getByText('Other').click();
  await dialog.getByLabel('Tell us more').fill('These lyrics are copied from another song.');
  await shot('report-dialog');
  await dialog.getByRole('button', { name: 'Submit report' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText(
    'Report submitted successfully. Thank you for helping keep our community safe.',
  );
  await shot('report-submitted');

  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});
