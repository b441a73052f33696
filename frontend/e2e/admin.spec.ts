/**
 * The admin panel against the real server: an account made admin with the command line
 * (`selfsound admin grant EMAIL`, on the test server's database) sees the analytics and a
 * complaint another person filed through the API, opens its details, deletes the post, and the
 * post is gone from the home feed; a signed-in non-admin who opens /admin/a is told 'Admin access
 * required' where they are, with a way home, at both widths.
 */
import { execFileSync } from 'node:child_process';
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

test('an admin sees the analytics, opens a complaint and deletes the post', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const project = testInfo.project.name;
  const root = await signedUpAccount(request, server, uniqueEmail('root', project), 'Root Admin');
  const author = await signedUpAccount(request, server, uniqueEmail('author', project), 'Ana Author');
  const reporter = await signedUpAccount(request, server, uniqueEmail('reporter', project), 'Rita Reporter');
  grantAdmin(server.dataDir, root.email);

  const title = `Borrowed Song ${project}-${Math.random().toString(36).slice(2, 7)}`;
  const postId = await lyricsPost(request, server.url, author.token, title);
  const reported = await request.post(`${server.url}/reports/post`, {
    headers: { Authorization: `Bearer ${reporter.token}` },
    data: { post_id: postId, reason: 'Other', description: 'These lyrics are copied from my song.' },
  });
  expect(reported.status()).toBe(201);

  await signInThroughAddress(page, server.appUrl, root.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  const card = page.getByRole('heading', { name: title });
  await expect(card).toBeVisible();

  // Settings leads an admin to the panel; /admin goes on to the analytics.
  await page.goto(`${server.appUrl}/settings`);
  await page.getByRole('link', { name: 'Open the admin panel' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/admin/a`);
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  const totals = page.getByRole('list', { name: 'Totals' });
  await expect(totals.getByRole('listitem')).toHaveCount(11);
  await expect(totals.getByRole('listitem').filter({ hasText: 'Open reports' })).toBeVisible();
  const chart = page.getByRole('img', { name: /Sign-ups, posts and reports per day/ });
  await expect(chart).toBeVisible();
  await expect(page.locator('[data-series="posts"] circle')).toHaveCount(30);
  await shot('admin-analytics', { fullPage: true });

  // The complaint, among whatever else is pending on this shared server.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Complaints' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/admin/c`);
  await expect(page.getByRole('heading', { level: 1, name: 'User Complaints' })).toBeVisible();
  const pending = page.getByRole('list', { name: 'Pending complaints' });
  const row = pending.getByRole('listitem').filter({ hasText: `lyrics post by @${author.login}` });
  await expect(row).toContainText('Reported by Rita Reporter');
  await shot('admin-complaints');

  await row.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Complaint Details' });
  await expect(details).toContainText(reporter.id);
  await expect(details).toContainText('Rita Reporter');
  await expect(details).toContainText(postId);
  await expect(details).toContainText('These lyrics are copied from my song.');
  await expect(details).toContainText('pending');
  await expect(details).toContainText('Still on SelfSound');
  const link = details.getByRole('link', { name: /Open post/ });
  await expect(link).toHaveAttribute('href', new RegExp(`/post/${postId}$`));
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await shot('admin-complaint-details');

  // Deleting asks first, in the dialog, with the answer focused.
  await details.getByRole('button', { name: 'Delete Post' }).click();
  await expect(details.getByRole('group', { name: /Delete this post for everyone/ })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Yes, delete post' })).toBeFocused();
  await shot('admin-complaint-confirm-delete');
  await details.getByRole('button', { name: 'Yes, delete post' }).click();
  await expect(details).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText('Report deleted successfully');
  await expect(row).toHaveCount(0);
  await shot('admin-complaint-deleted');

  // Kept below, folded: the decision and who made it.
  const resolved = page.locator('details').filter({ hasText: 'Resolved' });
  await resolved.locator('summary').click();
  const done = page
    .getByRole('list', { name: 'Resolved complaints' })
    .getByRole('listitem')
    .filter({ hasText: `lyrics post by @${author.login}` });
  await done.getByRole('button', { name: 'View Details' }).click();
  await expect(details).toContainText(`Deleted by @${root.login}`);
  await expect(details).toContainText('Post deleted');
  await expect(details.getByRole('button', { name: 'Delete Post' })).toHaveCount(0);
  await shot('admin-complaint-resolved');
  await details.getByRole('button', { name: 'Close' }).click();

  // The post is gone from the home feed and from its own page.
  await page.goto(`${server.appUrl}/home`);
  // The feed has answered: posts (others' on this shared server) or, with none left, its empty state.
  await expect(page.locator('[data-feed] article').first().or(page.getByText('No posts yet'))).toBeVisible();
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);
  await page.goto(`${server.appUrl}/post/${postId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();

  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});

test("a non-admin opening /admin/a is told 'Admin access required' where they are, with a way home", async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const email = uniqueEmail('not-admin', testInfo.project.name);
  const someone = await signedUpAccount(request, server, email, 'Nora Member');
  await signInThroughAddress(page, server.appUrl, someone.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  // No way in for them in Settings.
  await page.goto(`${server.appUrl}/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the admin panel' })).toHaveCount(0);

  await page.goto(`${server.appUrl}/admin/a`);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin access required' })).toBeVisible();
  // Still signed in, still here: not the sign-in form, which would look like being signed out.
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(`${server.appUrl}/admin/a`);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  await shot('admin-refused');
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  // Someone with an admin account too signs in with it from there, and the form says why.
  await page.goto(`${server.appUrl}/admin/c`);
  await page.getByRole('link', { name: 'Sign in as an admin' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('alert')).toContainText('Admin access required');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  expect(csp).toEqual([]);
});
