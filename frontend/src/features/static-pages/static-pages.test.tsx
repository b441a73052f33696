import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import { currentLocation, renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { AboutUsPage } from './about-us-page';
import { AdvertisersPage } from './advertisers-page';
import { PremiumPage, YourPremiumPage } from './premium-pages';
import { PrivacyPage } from './privacy-page';
import { DiscordPage, InstagramPage } from './social-pages';
import { SupportPage } from './support-page';
import { TermsPage } from './terms-page';

const PAGES: [string, ReactElement, string][] = [
  ['/premium', <PremiumPage />, 'Premium'],
  ['/support', <SupportPage />, 'Support'],
  ['/about-us', <AboutUsPage />, 'About us'],
  ['/advertisers', <AdvertisersPage />, 'For Advertisers'],
  ['/terms', <TermsPage />, 'Terms of Use'],
  ['/privacy', <PrivacyPage />, 'Privacy Policy'],
  ['/socials/instagram', <InstagramPage />, 'SelfSound on Instagram'],
  ['/socials/discord', <DiscordPage />, 'SelfSound on Discord'],
  ['/your_premium', <YourPremiumPage />, 'Your Premium'],
];

function show(path: string, page: ReactElement) {
  return renderPage(page, { route: path, path });
}

const sectionTitles = () =>
  screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent?.replace(/^\d+/, ''));

describe('static pages', () => {
  it.each(PAGES)('%s has its heading and tab title', (path, page, title) => {
    signedInAs(null);
    show(path, page);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(document.title).toBe(`${title} · SelfSound`);
  });

  it.each(PAGES)('%s goes back through history with Back', async (path, page) => {
    signedInAs(null);
    renderPage(page, { route: '/before', path, routes: { '/before': <Link to={path}>Open</Link> } });
    await userEvent.click(screen.getByRole('link', { name: 'Open' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(currentLocation()).toBe('/before');
  });

  it('goes home with Back when it was the first page opened', async () => {
    signedInAs(null);
    show('/terms', <TermsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(currentLocation()).toBe('/home');
  });
});

describe('SupportPage', () => {
  it('is reached by e-mail only and asks for one message, not duplicates', () => {
    show('/support', <SupportPage />);
    const button = screen.getByRole('link', { name: 'support@selfsound.app' });
    expect(button.getAttribute('href')).toMatch(/^mailto:support@selfsound\.app\?subject=/);
    expect(screen.getByText(/There is no live chat or phone support\./)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Please send your message only once' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });
});

describe('TermsPage', () => {
  it('covers the ten topics of the spec, in order, with the minimum age of 13', () => {
    show('/terms', <TermsPage />);
    expect(sectionTitles()).toEqual([
      'Your account',
      'Minimum age',
      'Your content stays yours',
      'What you may post',
      'How we treat each other',
      'Moderation and suspension',
      'Copyright',
      'Privacy',
      'Feedback',
      'Ending your use of SelfSound',
      'Changes and questions',
    ]);
    expect(screen.getByRole('region', { name: /Minimum age/ })).toHaveTextContent('at least 13 years old');
  });

  it('lists its contents; a contents link scrolls to its topic without a new history entry', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    show('/terms', <TermsPage />);
    const contents = screen.getByRole('navigation', { name: 'Contents' });
    expect(within(contents).getAllByRole('link')).toHaveLength(10);
    await userEvent.click(within(contents).getByRole('link', { name: 'Copyright' }));
    expect(scrolled).toHaveBeenCalledOnce();
    expect(screen.getByRole('heading', { name: /Copyright/ })).toHaveFocus();
    expect(currentLocation()).toBe('/terms');
  });
});

describe('PrivacyPage', () => {
  it('covers the six topics of the spec and what this product really keeps', () => {
    show('/privacy', <PrivacyPage />);
    expect(sectionTitles()).toEqual([
      'What we collect',
      'Cookies',
      'Who sees and receives your data',
      'How we protect it',
      'How long we keep it',
      'Your rights',
      'Changes to this policy',
    ]);
    const cookies = screen.getByRole('region', { name: /Cookies/ });
    expect(cookies).toHaveTextContent('one cookie, access_token');
    expect(cookies).toHaveTextContent('no third-party trackers');
    expect(screen.getByRole('region', { name: /Who sees/ })).toHaveTextContent('We do not sell your personal data');
    expect(screen.getByRole('region', { name: /How long/ })).toHaveTextContent(
      'Deleting your account in Settings removes your profile, your posts and the files you uploaded',
    );
  });
});

describe('social pages', () => {
  it.each([
    ['Instagram', <InstagramPage />],
    ['Discord', <DiscordPage />],
  ])('%s says it is not live yet', (name, page) => {
    show(`/socials/${name.toLowerCase()}`, page);
    expect(screen.getByText(`Our ${name} is not live yet.`)).toBeInTheDocument();
  });
});

describe('premium pages', () => {
  it('/premium says Premium is under development and offers the free plan to a guest', async () => {
    signedInAs(null);
    show('/premium', <PremiumPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Premium is under development.');
    expect(screen.getByRole('status')).toHaveTextContent('Expected release: Coming soon');
    expect(screen.getByRole('article', { name: 'Starter' })).toHaveTextContent('Free forever');
    expect(await screen.findByRole('link', { name: 'Sign up for free' })).toHaveAttribute('href', '/sign-up');
  });

  it('/premium leads a signed-in person to their plan', async () => {
    signedInAs(ADA);
    show('/premium', <PremiumPage />);
    expect(await screen.findByRole('link', { name: /See your plan/ })).toHaveAttribute('href', '/your_premium');
  });

  it('/your_premium shows the Starter plan the person is on', () => {
    show('/your_premium', <YourPremiumPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Expected release: Coming soon');
    const plan = screen.getByRole('article', { name: 'Starter' });
    expect(plan).toHaveTextContent('Current plan');
    expect(plan).toHaveTextContent('0 USD');
    expect(plan).toHaveTextContent('per month');
    expect(plan).toHaveTextContent('Free forever');
    expect(within(plan).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '4 types of post',
      'Tag role',
      'Basic functionality',
    ]);
    expect(screen.getByRole('link', { name: /Learn about Premium/ })).toHaveAttribute('href', '/premium');
  });
});
