/**
 * Notifications and reports against the real server. Bea comments on Ada's post mentioning her,
 * listens to her and likes the post: Ada's badge rises with each while she looks at the feed (the
 * server's stream, no reload). She opens /notifications, clicks the mention's row, lands on Bea's
 * profile, and coming back finds the row read; Mark all as read does the rest. Then Ada reports
 * Bea's post from its card's menu as Other, with words, and is thanked.
 */
import type { Page, TestInfo } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { watchCsp } from './support/csp';
import { watchDialogs } from './support/dialogs';

/** The Notifications link of whichever bar this width shows (side bar or bottom bar). */
const notificationsLink = (page: Page) => page.getByRole('link', { name: /^Notifications/ });

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

  await signInThroughAddress(page, server.appUrl, ada.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications');

  // Bea comments on Ada's post, mentioning her: the badge rises with no reload.
  const comment = await request.post(`${server.url}/posts/${adaPost}/comments`, {
    headers: { Authorization: `Bearer ${bea.token}` },
    data: { content: `@${ada.login} nice riff ${tag}` },
  });
  expect(comment.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 1 unread', { timeout: 15_000 });
  await expect(notificationsLink(page).getByTestId('unread-badge')).toHaveText('1');
  // She also starts listening to Ada and likes the post: two more, each as it happens.
  const listen = await request.post(`${server.url}/profiles/listening/${ada.id}`, {
    headers: { Authorization: `Bearer ${bea.token}` },
  });
  expect(listen.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 2 unread');
  const like = await request.post(`${server.url}/posts/${adaPost}/like`, { headers: { Authorization: `Bearer ${bea.token}` } });
  expect(like.ok()).toBe(true);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications, 3 unread');
  await shot('notifications-badge');

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
  // Still read after a reload: the server has it.
  await page.reload();
  await expect(row).toHaveAttribute('data-read', 'true');
  await expect(page.locator('[data-read="false"]')).toHaveCount(2);
  await shot('notifications-read');

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.locator('[data-read="false"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await expect(notificationsLink(page)).toHaveAccessibleName('Notifications');
  await shot('notifications-all-read');

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
