import { expect, test, uniqueEmail } from './support/fixtures';
import { verificationLink } from './support/mail';
import { PASSWORD, createVerifiedUser } from './support/accounts';

test('sign up, verify by e-mail, sign in, stay signed in, log out', async ({ page, server, shot }, testInfo) => {
  const email = uniqueEmail('journey', testInfo.project.name);

  // Sign up.
  await page.goto(`${server.appUrl}/sign-up`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Name').fill('E2E Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await expect(page.getByText('Strong password')).toBeVisible();
  await shot('sign-up-filled', { fullPage: true });
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('status').first()).toBeVisible();
  await shot('sign-up-success');

  // After 2 s: the verify page for that address.
  await page.waitForURL((url) => url.pathname === '/app/verify' && url.searchParams.get('email') === email);
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend Email' })).toBeVisible();
  await shot('verify');

  // The e-mailed link verifies and lands on sign-in with the notice; the address is cleaned.
  const link = await verificationLink(server.dataDir, email);
  await page.goto(link);
  await expect(page.getByText('Your email has been verified. You can now sign in.')).toBeVisible();
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await shot('verified');

  // Sign in → /home.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${server.appUrl}/home`);
  await expect(page.getByRole('tab', { name: 'For you' })).toHaveAttribute('aria-selected', 'true');
  await shot('home-signed-in');

  // A reload keeps the session; settings (auth required) opens.
  await page.reload();
  await expect(page).toHaveURL(`${server.appUrl}/home`);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(`${server.appUrl}/settings`);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await shot('settings', { fullPage: true });

  // Log out → /sign-in; settings is closed again.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${server.appUrl}/sign-in`);
  await page.goto(`${server.appUrl}/settings`);
  await page.waitForURL(`${server.appUrl}/sign-in`);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('a wrong password shows the server detail', async ({ page, server, request, shot }, testInfo) => {
  const email = uniqueEmail('wrong', testInfo.project.name);
  await createVerifiedUser(request, server, email);

  await page.goto(`${server.appUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong!Passw0rd');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);
  await shot('sign-in-wrong-password');
});

test('signing in before verifying shows the server detail and a way to resend', async ({ page, server, request }, testInfo) => {
  const email = uniqueEmail('unverified', testInfo.project.name);
  const signUp = await request.post(`${server.url}/authorization/signup`, {
    data: { email, password: PASSWORD, name: 'Not Yet' },
  });
  expect(signUp.ok()).toBe(true);

  await page.goto(`${server.appUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Please verify your email address before signing in.');
  await page.getByRole('link', { name: 'Resend the verification email' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
});

test('signing up twice with a verified address says to sign in instead', async ({ page, server, request }, testInfo) => {
  const email = uniqueEmail('twice', testInfo.project.name);
  await createVerifiedUser(request, server, email);

  await page.goto(`${server.appUrl}/sign-up`);
  await page.getByLabel('Name').fill('Again');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'An account with this email already exists. Please sign in instead.',
  );
  await expect(page.getByText('Account already exists')).toBeVisible();
});
