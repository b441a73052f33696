/**
 * The marketing page and the static pages (spec §2) at both widths: every header and footer
 * link opens its page (never the not-found page), the phone menu opens and closes, each static
 * page starts at the top and its Back returns where the visitor came from. Screenshots of every
 * page land in e2e/artifacts/.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './support/fixtures';
import { createVerifiedUser, signInThroughAddress } from './support/accounts';
import { watchCsp } from './support/csp';

/** What each link of the marketing page must open: its address, and a heading of that page. */
const HEADER_LINKS = [
  { name: 'Premium', path: '/premium', heading: 'Premium' },
  { name: 'Support', path: '/support', heading: 'Support' },
  { name: 'Guest mode', path: '/home', heading: null },
  { name: 'Log in', path: '/sign-in', heading: 'Welcome back' },
  { name: 'Sign up', path: '/sign-up', heading: 'Create your account' },
];

const FOOTER_LINKS = [
  { name: 'About us', path: '/about-us', heading: 'About us', shot: 'about-us' },
  { name: 'Support', path: '/support', heading: 'Support', shot: 'support' },
  { name: 'Terms of Use', path: '/terms', heading: 'Terms of Use', shot: 'terms' },
  { name: 'Privacy Policy', path: '/privacy', heading: 'Privacy Policy', shot: 'privacy' },
  { name: 'For Advertisers', path: '/advertisers', heading: 'For Advertisers', shot: 'advertisers' },
  { name: 'Discord', path: '/socials/discord', heading: 'SelfSound on Discord', shot: 'discord' },
  { name: 'Instagram', path: '/socials/instagram', heading: 'SelfSound on Instagram', shot: 'instagram' },
];

const isPhone = (projectName: string) => projectName === 'phone';

/** The header's links: in the bar on a wide screen, behind the menu button on a phone. */
async function headerLinks(page: Page, phone: boolean): Promise<Locator> {
  const header = page.getByRole('banner');
  if (phone) {
    const toggle = header.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    await expect(header.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  }
  return header.getByRole('navigation', { name: 'Main' });
}

async function expectOpened(page: Page, appUrl: string, path: string, heading: string | null) {
  await expect(page).toHaveURL(`${appUrl}${path}`);
  if (heading) await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  else await expect(page.getByRole('tab', { name: 'For you' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
}

test('the marketing page: hero, benefits, why choose, footer, and no app navigation', async ({
  page,
  server,
  shot,
}) => {
  const csp = watchCsp(page);
  await page.goto(`${server.appUrl}/about-selfsound`);
  await expect(page.getByRole('heading', { level: 1, name: 'A home for every voice in music' })).toBeVisible();
  await expect(page).toHaveTitle('A home for every voice in music · SelfSound');
  await expect(page.getByRole('complementary', { name: 'Main navigation' })).toHaveCount(0);
  await shot('marketing');
  await shot('marketing-full', { fullPage: true });

  // No part of the page is wider than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Both 'Sign up for free' buttons lead to /sign-up.
  const signUps = page.getByRole('link', { name: 'Sign up for free' });
  await expect(signUps).toHaveCount(2);
  await signUps.nth(1).scrollIntoViewIfNeeded();
  await shot('marketing-why-choose');
  await signUps.nth(1).click();
  await expectOpened(page, server.appUrl, '/sign-up', 'Create your account');
  await page.goBack();
  await signUps.first().click();
  await expectOpened(page, server.appUrl, '/sign-up', 'Create your account');
  expect(csp).toEqual([]);
});

test('every header link opens its page', async ({ page, server }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  for (const link of HEADER_LINKS) {
    await page.goto(`${server.appUrl}/about-selfsound`);
    const nav = await headerLinks(page, phone);
    await nav.getByRole('link', { name: link.name, exact: true }).click();
    await expectOpened(page, server.appUrl, link.path, link.heading);
  }
});

test('every footer link opens its page, at the top, and Back returns to the marketing page', async ({
  page,
  server,
  shot,
}) => {
  const csp = watchCsp(page);
  for (const link of FOOTER_LINKS) {
    await page.goto(`${server.appUrl}/about-selfsound`);
    const footer = page.getByRole('contentinfo');
    await footer.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await footer.getByRole('link', { name: link.name, exact: true }).click();
    await expectOpened(page, server.appUrl, link.path, link.heading);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await shot(`static-${link.shot}`, { fullPage: true });

    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(`${server.appUrl}/about-selfsound`);
    await expect(page.getByRole('heading', { level: 1, name: 'A home for every voice in music' })).toBeVisible();
  }
  expect(csp).toEqual([]);
});

test('the header menu folds away on a phone and opens with its button', async ({ page, server, shot }, testInfo) => {
  await page.goto(`${server.appUrl}/about-selfsound`);
  const header = page.getByRole('banner');
  const nav = header.getByRole('navigation', { name: 'Main' });
  if (!isPhone(testInfo.project.name)) {
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(nav.getByRole('link', { name: 'Guest mode' })).toBeVisible();
    return;
  }

  const toggle = header.getByRole('button', { name: 'Open menu' });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();

  await toggle.click();
  const close = header.getByRole('button', { name: 'Close menu' });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  for (const link of HEADER_LINKS) await expect(nav.getByRole('link', { name: link.name, exact: true })).toBeVisible();
  await shot('marketing-menu-open');

  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(toggle).toBeFocused();

  await toggle.click();
  await close.click();
  await expect(nav).toBeHidden();
});

test('a static page opened directly goes home with Back', async ({ page, server }) => {
  await page.goto(`${server.appUrl}/terms`);
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Use' })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expectOpened(page, server.appUrl, '/home', null);
});

test('Premium and Your Premium: the free Starter plan, Premium coming soon', async ({
  page,
  server,
  request,
  shot,
}, testInfo) => {
  await page.goto(`${server.appUrl}/your_premium`);
  await expect(page).toHaveURL(`${server.appUrl}/sign-in`);

  await page.goto(`${server.appUrl}/premium`);
  await expect(page.getByText('Expected release: Coming soon')).toBeVisible();
  await shot('static-premium', { fullPage: true });

  const token = await createVerifiedUser(request, server, uniqueEmail('premium', testInfo.project.name), 'Pia Premium');
  await signInThroughAddress(page, server.appUrl, token);
  await expect(page).toHaveURL(`${server.appUrl}/home`);

  // Settings' Premium card → /premium → 'See your plan' → /your_premium; Back twice → Settings.
  await page.goto(`${server.appUrl}/settings`);
  await page.getByRole('link', { name: /Learn about Premium/ }).click();
  await expectOpened(page, server.appUrl, '/premium', 'Premium');
  await page.getByRole('link', { name: /See your plan/ }).click();
  await expectOpened(page, server.appUrl, '/your_premium', 'Your Premium');
  await expect(page.getByText('Expected release: Coming soon')).toBeVisible();
  const plan = page.getByRole('article', { name: 'Starter' });
  await expect(plan).toContainText('Current plan');
  await expect(plan).toContainText('0 USD');
  await expect(plan).toContainText('Free forever');
  await shot('static-your-premium', { fullPage: true });

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/premium`);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(`${server.appUrl}/settings`);
});
