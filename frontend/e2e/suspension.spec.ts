/**
 * Suspending an account against the real server (issue 16): an admin opens a complaint about a
 * post, suspends its author with a reason; the author's open tab loses its session at once (its
 * live stream ends), signing in again says 'This account is suspended', and the post is gone
 * from the feed and its page. The admin lifts the suspension from 'Suspended accounts': the post
 * is back and the author signs in.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, uniqueEmail } from './support/fixtures';
import { PASSWORD, lyricsPost, ownClientAddress, signInThroughAddress, signedUpAccount } from './support/accounts';
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

test('an admin suspends an author from a complaint, then lifts it', async ({
  page,
  browser,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const dialogs = watchDialogs(page);
  const project = testInfo.project.name;
  const admin = await signedUpAccount(request, server, uniqueEmail('moderator', project), 'Mia Moderator');
  const author = await signedUpAccount(request, server, uniqueEmail('author', project), 'Sam Spammer');
  const reporter = await signedUpAccount(request, server, uniqueEmail('reporter', project), 'Rita Reporter');
  grantAdmin(server.dataDir, admin.email);

  const title = `Buy Followers ${project}-${Math.random().toString(36).slice(2, 7)}`;
  const postId = await lyricsPost(request, server.url, author.token, title);
  const reported = await request.post(`${server.url}/reports/post`, {
    headers: { Authorization: `Bearer ${reporter.token}` },
    data: { post_id: postId, reason: 'Spam', description: null },
  });
  expect(reported.status()).toBe(201);

  // The author's own tab, open on the home feed (its live stream open).
  const authorContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  await ownClientAddress(authorContext);
  const authorPage = await authorContext.newPage();
  await signInThroughAddress(authorPage, server.appUrl, author.token);
  await expect(authorPage).toHaveURL(`${server.appUrl}/home`);
  await expect(authorPage.getByRole('heading', { name: title })).toBeVisible();
  await expect(authorPage.getByRole('link', { name: 'Sign in' })).toHaveCount(0);

  // The admin opens the complaint and suspends the author, with a reason.
  await signInThroughAddress(page, server.appUrl, admin.token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/admin/c`);
  const row = page
    .getByRole('list', { name: 'Pending complaints' })
    .getByRole('listitem')
    .filter({ hasText: `lyrics post by @${author.login}` });
  await row.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Complaint Details' });
  await expect(details).toContainText(`@${author.login} can sign in and post.`);
  await details.getByRole('button', { name: 'Suspend author' }).click();
  const ask = page.getByRole('dialog', { name: `Suspend @${author.login}?` });
  await ask.getByLabel('Reason').fill('Spam posts after a warning');
  await shot('suspend-reason-dialog');
  await ask.getByRole('button', { name: 'Suspend' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByTestId('toast')).toContainText(`Account suspended: @${author.login}`);
  await expect(details).toContainText(`Suspended by @${admin.login}`);
  await expect(details).toContainText('Spam posts after a warning');
  await expect(details).toContainText(`Author suspended by @${admin.login}`);
  await expect(details.getByRole('button', { name: 'Lift suspension' })).toBeVisible();
  await shot('suspend-complaint-details');

  // The author's open tab loses its session at once: its live stream said so.
  await expect(authorPage.getByRole('link', { name: 'Sign in' }).first()).toBeVisible({ timeout: 5_000 });
  // Signing in again is refused, in the server's words.
  await authorPage.goto(`${server.appUrl}/sign-in`);
  await authorPage.getByLabel('Email').fill(author.email);
  await authorPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await authorPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(authorPage.getByRole('alert')).toContainText('This account is suspended');
  await expect(authorPage.getByRole('link', { name: 'Resend the verification email' })).toHaveCount(0);

  // Their post is gone from the feed and from its own page, for everyone.
  await details.getByRole('button', { name: 'Close' }).click();
  await page.goto(`${server.appUrl}/home`);
  await expect(page.locator('[data-feed] article').first().or(page.getByText('No posts yet'))).toBeVisible();
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);
  await page.goto(`${server.appUrl}/post/${postId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();

  // Suspended accounts: the admin lifts it there.
  await page.goto(`${server.appUrl}/admin/c`);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Suspended' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/admin/s`);
  await expect(page.getByRole('heading', { level: 1, name: 'Suspended accounts' })).toBeVisible();
  const suspended = page
    .getByRole('list', { name: 'Suspended accounts' })
    .getByRole('listitem')
    .filter({ hasText: `@${author.login}` });
  await expect(suspended).toContainText('Spam posts after a warning');
  await expect(suspended).toContainText(`Suspended by @${admin.login}`);
  await shot('suspended-accounts', { fullPage: true });
  await suspended.getByRole('button', { name: 'Lift suspension' }).click();
  const confirm = page.getByRole('dialog', { name: `Lift @${author.login}'s suspension?` });
  await shot('suspended-lift-confirm');
  await confirm.getByRole('button', { name: 'Lift', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`Suspension lifted: @${author.login}`);
  await expect(suspended).toHaveCount(0);

  // Back: the post is on the feed again, and the author signs in.
  await page.goto(`${server.appUrl}/home`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await authorPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(authorPage).toHaveURL(`${server.appUrl}/home`);

  await authorContext.close();
  expect(dialogs).toEqual([]);
  expect(csp).toEqual([]);
});
