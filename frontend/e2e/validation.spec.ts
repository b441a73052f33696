import { expect, test } from './support/fixtures';

test('sign-in validation messages are worded as the spec words them', async ({ page, server, shot }) => {
  await page.goto(`${server.appUrl}/sign-in`);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await shot('sign-in-required');

  await page.getByLabel('Email').fill('ada@');
  await page.getByLabel('Password', { exact: true }).fill('12345');
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
});

test('sign-up validation messages are worded as the spec words them', async ({ page, server, shot }) => {
  await page.goto(`${server.appUrl}/sign-up`);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  await page.getByLabel('Name').fill('A name that is far too long');
  await expect(page.getByLabel('Name')).toHaveValue('A name that is ');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('Ab1!xyz');
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await shot('sign-up-invalid', { fullPage: true });
});

test("the server's password rule reaches the password field", async ({ page, server }) => {
  await page.goto(`${server.appUrl}/sign-up`);
  await page.getByLabel('Name').fill('Rule Check');
  await page.getByLabel('Email').fill(`rule-${Date.now()}@example.com`);
  // 8+ characters passes the form; the server still wants every kind of character.
  await page.getByLabel('Password', { exact: true }).fill('lowercaseonly');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Please check your password requirements.');
  await expect(page.getByText(/^Password must include/)).toBeVisible();
});
