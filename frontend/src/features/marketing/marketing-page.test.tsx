import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderPage } from '../../test/render';
import { MarketingHeader } from './marketing-header';
import { MarketingPage } from './marketing-page';

function renderMarketing() {
  return renderPage(<MarketingPage />, { route: '/about-selfsound', path: '/about-selfsound' });
}

const hrefs = (container: HTMLElement) =>
  within(container)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('MarketingPage', () => {
  it('has the header links of the spec, in its order', () => {
    renderMarketing();
    const header = screen.getByRole('banner');
    expect(hrefs(header)).toEqual([
      ['Premium', '/premium'],
      ['Support', '/support'],
      ['Guest mode', '/home'],
      ['Log in', '/sign-in'],
      ['Sign up', '/sign-up'],
    ]);
  });

  it('has the footer links of the spec', () => {
    renderMarketing();
    const footer = screen.getByRole('contentinfo');
    expect(hrefs(footer)).toEqual([
      ['About us', '/about-us'],
      ['For Advertisers', '/advertisers'],
      ['Support', '/support'],
      ['Terms of Use', '/terms'],
      ['Privacy Policy', '/privacy'],
      ['Discord', '/socials/discord'],
      ['Instagram', '/socials/instagram'],
    ]);
  });

  it("has a 'Sign up for free' button in the hero and in the why-choose section", () => {
    renderMarketing();
    const hero = screen.getByRole('region', { name: /every voice/ });
    const why = screen.getByRole('region', { name: 'Why choose SelfSound' });
    for (const section of [hero, why]) {
      expect(within(section).getByRole('link', { name: 'Sign up for free' })).toHaveAttribute('href', '/sign-up');
    }
    expect(screen.getByRole('region', { name: 'Made for the way music is shared' })).toBeInTheDocument();
  });

  it('speaks of the role tags, the four post types and reactions to posts', () => {
    renderMarketing();
    const main = screen.getByRole('main');
    for (const words of [
      'Listener',
      'Musician',
      'Learner',
      'Audio',
      'Images and videos',
      'Lyrics',
      'Sheet music',
      'MusicXML',
      'Likes',
      'Comments',
      '@mentions',
    ]) {
      expect(main).toHaveTextContent(words);
    }
  });

  it('is outside the app: no navigation bar', () => {
    renderMarketing();
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).not.toBeInTheDocument();
    expect(document.title).toBe('A home for every voice in music · SelfSound');
  });
});

describe('MarketingHeader menu', () => {
  function renderHeader() {
    renderPage(<MarketingHeader />, { route: '/about-selfsound', path: '*' });
    return screen.getByRole('button', { name: 'Open menu' });
  }

  it('opens and closes with its button, which says what it controls', async () => {
    const toggle = renderHeader();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).toBeInstanceOf(HTMLElement);
    expect(within(menu as HTMLElement).getByRole('link', { name: 'Guest mode' })).toBeInTheDocument();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');
    expect(screen.getByRole('banner')).toHaveAttribute('data-open');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('banner')).not.toHaveAttribute('data-open');
  });

  it('closes on Escape and gives the focus back to its button', async () => {
    const toggle = renderHeader();
    await userEvent.click(toggle);
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Premium' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes when a link is followed', async () => {
    const toggle = renderHeader();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('link', { name: 'Support' }));
    expect(currentLocation()).toBe('/support');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
