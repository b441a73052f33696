/**
 * Comments under moderation against the real server: someone reports a comment from its menu,
 * an admin finds it in the complaints as one row with its count (another person reported it
 * too) and deletes the comment; and a comment's author deletes their own comment from its menu,
 * after a confirmation, and the list and the count follow at once.
 */
import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signInThroughAddress, signedUpAccount } from './support/accounts';
import { watchCsp } from './support/csp';
import { watchDialogs } from './support/dialogs';
import { binaryPath } from './support/server';

/** `selfsound admin grant EMAIL` with the environment the test server got (its database). */
function grantAdmin(dataDir: string, email: string): void {
  const out = execFileSync(binaryPath(), ['admin', 'grant', email], {
    env: { ...process.env, SELFSOUND_DATA_DIR: dataDir, RUST_LOG: 'warn' },
    encoding: 'utf8',
  });
  expect(out).toContain('is an admin now');
}

/** A comment made through the API; returns its id. */
async function commentOn(request: APIRequestContext, url: string, token: string, post: string, text: string) {
  const res = await request.post(`${url}/posts/${post}/comments`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { content: text },
  });
  expect(res.status()).toBe(201);
  return String(((await res.json()) as { comment: { id: string } }).comment.id);
}

test('a reported comment reaches the admin as one row with its count, and the admin deletes it', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const project = testInfo.project.name;
  const tag = `${project}-${Math.random().toString(36).slice(2, 7)}`;
  const root = await signedUpAccount(request, server, uniqueEmail('croot', project), 'Root Admin');
  const author = await signedUpAccount(request, server, uniqueEmail('cauthor', project), 'Ana Author');
  const troll = await signedUpAccount(request, server, uniqueEmail('ctroll', project), 'Tess Troll');
  const rita = await signedUpAccount(request, server, uniqueEmail('crita', project), 'Rita Reporter');
  const otto = await signedUpAccount(request, server, uniqueEmail('cotto', project), 'Otto Other');
  grantAdmin(server.dataDir, root.email);

  const title = `Quiet Song ${tag}`;
  const postId = await lyricsPost(request, server.url, author.token, title);
  const rude = `Nobody wants to hear this ${tag}`;
  const rudeId = await commentOn(request, server.url, troll.token, postId, rude);
  await commentOn(request, server.url, otto.token, postId, `Lovely chorus ${tag}`);
  // Someone else reported it already.
  const first = await request.post(`${server.url}/reports/comment`, {
    headers: { Authorization: `Bearer ${otto.token}` },
    data: { comment_id: rudeId, reason: 'Harassment', description: null },
  });
  expect(first.status()).toBe(201);

  // Rita reports it from its menu, with the dialog posts use.
  await signInThroughAddress(page, server.appUrl, rita.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/post/${postId}`);
  const trolls = page.getByRole('article', { name: 'Comment by Tess Troll' });
  await expect(trolls).toContainText(rude);
  await trolls.getByRole('button', { name: 'Comment options' }).click();
  const menu = trolls.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(['Report', 'Cancel']);
  await shot('comment-menu-others');
  await menu.getByRole('menuitem', { name: 'Report' }).click();
  const report = page.getByRole('dialog', { name: 'Report comment' });
  await expect(report).toContainText('Why are you reporting this comment?');
  await report.getByText('Harassment').click();
  await report.getByRole('button', { name: 'Submit report' }).click();
  await expect(report).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText('Report submitted successfully.');

  // The admin: one row for the comment, with both complaints.
  await signInThroughAddress(page, server.appUrl, root.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/admin/c`);
  await expect(page.getByRole('heading', { level: 1, name: 'User Complaints' })).toBeVisible();
  const pending = page.getByRole('list', { name: 'Pending complaints' });
  const row = pending.getByRole('listitem').filter({ hasText: rude });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Comment by @${troll.login} on a lyrics post by @${author.login}`);
  await expect(row).toContainText('2 complaints');
  await expect(row).toContainText('2 Harassment');
  await row.scrollIntoViewIfNeeded();
  await shot('admin-comment-complaints', { fullPage: true });

  await row.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Complaint Details' });
  await expect(details).toContainText(rude);
  await expect(details).toContainText(`@${troll.login}`);
  await expect(details).toContainText('2 complaints');
  const reporters = details.getByRole('list', { name: 'Reported By' });
  await expect(reporters.getByRole('listitem')).toHaveCount(2);
  await expect(reporters).toContainText('Rita Reporter');
  await expect(reporters).toContainText('Otto Other');
  await expect(details.getByRole('button', { name: 'Delete Post' })).toHaveCount(0);
  await shot('admin-comment-complaint-details');

  await details.getByRole('button', { name: 'Delete Comment' }).click();
  await details.getByRole('button', { name: 'Yes, delete comment' }).click();
  await expect(details).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText('Report deleted successfully');
  await expect(row).toHaveCount(0);

  // The comment is gone from the post; the post and the other comment stay.
  await page.goto(`${server.appUrl}/post/${postId}`);
  await expect(page.getByRole('article', { name: 'Comment by Otto Other' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Comment by Tess Troll' })).toHaveCount(0);
  await expect(page.getByLabel('1 comment', { exact: true })).toBeVisible();

  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});

test("a comment's author deletes it from its menu, and the list and the count follow", async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const project = testInfo.project.name;
  const tag = `${project}-${Math.random().toString(36).slice(2, 7)}`;
  const author = await signedUpAccount(request, server, uniqueEmail('dauthor', project), 'Ana Author');
  const cleo = await signedUpAccount(request, server, uniqueEmail('dcleo', project), 'Cleo Comments');
  const postId = await lyricsPost(request, server.url, author.token, `Late Song ${tag}`);
  await commentOn(request, server.url, author.token, postId, `Thanks for listening ${tag}`);
  const mine = `I take this back ${tag}`;
  await commentOn(request, server.url, cleo.token, postId, mine);

  await signInThroughAddress(page, server.appUrl, cleo.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/post/${postId}`);
  await expect(page.getByLabel('2 comments', { exact: true })).toBeVisible();
  const own = page.getByRole('article', { name: 'Comment by Cleo Comments' });
  await own.getByRole('button', { name: 'Comment options' }).click();
  // Their own comment: Edit and Delete, no Report; someone else's: Report only.
  await expect(own.getByRole('menuitem')).toHaveText(['Edit', 'Delete', 'Cancel']);
  await shot('comment-menu-own');
  await own.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this comment?' });
  await expect(confirm).toContainText('It will be removed for everyone. This cannot be undone.');
  await shot('comment-delete-confirm');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText('Comment deleted.');
  await expect(page.getByText(mine)).toHaveCount(0);
  await expect(page.getByLabel('1 comment', { exact: true })).toBeVisible();

  const others = page.getByRole('article', { name: 'Comment by Ana Author' });
  await others.getByRole('button', { name: 'Comment options' }).click();
  await expect(others.getByRole('menuitem')).toHaveText(['Report', 'Cancel']);
  await page.keyboard.press('Escape');

  // And after a reload: the server agrees.
  await page.reload();
  await expect(page.getByRole('article', { name: 'Comment by Ana Author' })).toBeVisible();
  await expect(page.getByText(mine)).toHaveCount(0);
  await expect(page.getByLabel('1 comment', { exact: true })).toBeVisible();

  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});
