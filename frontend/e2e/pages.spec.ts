/** Every screen of this issue at both widths, signed out and signed in, for a look. */
import { expect, test, uniqueEmail } from './support/fixtures';
import { createVerifiedUser, signInThroughAddress } from './support/accounts';

test('signed-out screens', async ({ page, server, shot }) => {
  await page.goto(`${server.url}/`);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  await expect(page.getByRole('tab', { name: 'For you' })).toBeVisible();
  await shot('home-guest');

  await page.getByRole('tab', { name: 'Listened to' }).click();
  await expect(page.getByRole('heading', { name: 'Listened To Feed' })).toBeVisible();
  await expect(page.getByText("Posts from users you're listening to")).toBeVisible();
  await shot('home-listened-to');

  await page.goto(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await shot('sign-in');

  await page.goto(`${server.appUrl}/sign-up`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await shot('sign-up', { fullPage: true });

  await page.goto(`${server.appUrl}/verify?email=someone%40example.com`);
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await shot('verify-page');

  await page.goto(`${server.appUrl}/sign-in#verified=false`);
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);

  await page.goto(`${server.appUrl}/no-such-page`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await shot('not-found');
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  // A missing post and a missing person get the same page: what was looked for, home, search.
  await page.goto(`${server.appUrl}/post/1234567`);
  await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
  await expect(page.getByText('You looked for /post/1234567')).toBeVisible();
  await expect(page).toHaveTitle('Post not found · SelfSound');
  await shot('post-not-found');
  await page.getByRole('searchbox', { name: 'Search for music' }).fill('harbour');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(`${server.appUrl}/search?tab=music&q=harbour`);

  await page.goto(`${server.appUrl}/user/1234567`);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try Again' })).toHaveCount(0);
  await shot('profile-not-found');
});

test('Google sign-in says whether this server offers it', async ({ page, server, request }) => {
  const providers = (await (await request.get(`${server.url}/auth/providers`)).json()) as { google: boolean };
  await page.goto(`${server.appUrl}/sign-in`);
  const button = page.getByRole('button', { name: 'Continue with Google' });
  if (providers.google) {
    await expect(button).toBeEnabled();
  } else {
    await expect(button).toBeDisabled();
    await expect(page.getByText('Google sign-in is not set up on this server.')).toBeVisible();
  }
});

test('guest mode goes home signed out', async ({ page, server }) => {
  await page.goto(`${server.appUrl}/sign-in`);
  await page.getByRole('button', { name: 'Guest mode' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('signed-in screens, with a token handed over in the address', async ({ page, server, request, shot }, testInfo) => {
  const token = await createVerifiedUser(request, server, uniqueEmail('pages', testInfo.project.name), 'Page Tour');

  // The way Google sign-in returns: the sign-in page with ?token=… → stored, address cleaned, /home.
  await signInThroughAddress(page, server.appUrl, token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBe(token);

  await page.getByRole('button', { name: 'Add post' }).click();
  const chooser = page.getByRole('dialog', { name: 'Add new post' });
  await expect(chooser).toBeVisible();
  for (const option of ['Media', 'Audio', 'Lyrics', 'MusicXML']) {
    await expect(chooser.getByRole('link', { name: new RegExp(option) })).toBeVisible();
  }
  await shot('add-post-chooser');
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Free forever')).toBeVisible();
  await shot('settings-signed-in');
});

test('deleting the account asks first, then ends at sign-in for good', async ({ page, server, request, shot }, testInfo) => {
  const email = uniqueEmail('delete', testInfo.project.name);
  const token = await createVerifiedUser(request, server, email);
  await signInThroughAddress(page, server.appUrl, token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.goto(`${server.appUrl}/settings`);

  // Asked in the page (no browser dialog): Cancel keeps everything.
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Delete account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete account' });
  await expect(confirm).toContainText('Are you sure you want to delete your account? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(`${server.appUrl}/settings`);

  await page.getByRole('button', { name: 'Delete account' }).click();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.waitForURL(`${server.appUrl}/sign-in`);
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  await shot('sign-in-after-delete');
  expect(browserDialogs).toEqual([]);

  const signIn = await request.post(`${server.url}/authorization/logindefault`, {
    data: { email, password: 'Str0ng!Passw0rd' },
  });
  expect(signIn.status()).toBe(401);
});
