/**
 * Dark mode (issue 19): the app follows the device's setting, and a choice made in Settings →
 * Appearance holds across a reload, at both widths; the role badges keep their colours.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { lyricsPost, signedUpAccount, signInThroughAddress } from './support/accounts';
import { watchCsp } from './support/csp';

/** The page's background colour, as the browser paints it. */
const background = (page: import('@playwright/test').Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the app is dark on a dark device, and a choice in Settings holds across a reload', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  const csp = watchCsp(page);
  const project = testInfo.project.name;
  const me = await signedUpAccount(request, server, uniqueEmail('dark', project), 'Dana Dark');
  await lyricsPost(request, server.url, me.token, `Night Song ${project}`);

  await page.emulateMedia({ colorScheme: 'light' });
  await signInThroughAddress(page, server.appUrl, me.token);
  await page.goto(`${server.appUrl}/home`);
  await expect(page.getByText(`Night Song ${project}`).first()).toBeVisible();
  const light = await background(page);
  expect(light).toBe('rgb(246, 245, 250)');

  // A dark device, nothing chosen: dark, with no script needed.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe('rgb(17, 16, 21)');
  await shot('home-dark-from-the-device');

  // Chosen in Settings: it holds against the device's setting, across a reload.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${server.appUrl}/settings`);
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => background(page)).toBe('rgb(17, 16, 21)');
  await shot('settings-dark-chosen');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await background(page)).toBe('rgb(17, 16, 21)');
  await page.goto(`${server.appUrl}/home`);
  await expect(page.getByText(`Night Song ${project}`).first()).toBeVisible();
  await shot('home-dark-chosen');

  // Text keeps its contrast on the dark page: the body text is light.
  const text = await page.evaluate(() => getComputedStyle(document.body).color);
  expect(text).toBe('rgb(239, 236, 245)');

  await page.goto(`${server.appUrl}/settings`);
  await page.getByRole('radio', { name: 'Same as this device' }).check();
  await expect.poll(() => background(page)).toBe(light);
  expect(csp).toEqual([]);
});
