import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../test/app';
import { api, server } from '../test/server';
import { currentLocation } from '../test/render';
import { ADA, signedInAs } from '../test/session';

function renderAt(path: string) {
  server.use(http.get(api('/auth/providers'), () => HttpResponse.json({ google: false })));
  renderApp(path);
}

describe('the marketing page and the static pages (spec §2 route table)', () => {
  it('/about-selfsound is public and has no navigation bar', async () => {
    signedInAs(null);
    renderAt('/about-selfsound');
    expect(await screen.findByRole('heading', { level: 1, name: /every voice in music/ })).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).not.toBeInTheDocument();
  });

  it.each([
    ['/premium', 'Premium'],
    ['/support', 'Support'],
    ['/about-us', 'About us'],
    ['/advertisers', 'For Advertisers'],
    ['/terms', 'Terms of Use'],
    ['/privacy', 'Privacy Policy'],
    ['/socials/instagram', 'SelfSound on Instagram'],
    ['/socials/discord', 'SelfSound on Discord'],
  ])('%s is public and keeps the navigation bar', async (path, title) => {
    signedInAs(null);
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Main navigation' })).toBeInTheDocument();
    expect(currentLocation()).toBe(path);
  });

  it('/your_premium sends a signed-out visitor to /sign-in', async () => {
    signedInAs(null);
    renderAt('/your_premium');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/sign-in');
  });

  it('/your_premium shows a signed-in person their plan', async () => {
    signedInAs(ADA);
    renderAt('/your_premium');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Premium' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Starter' })).toHaveTextContent('Current plan');
  });

  it("Settings' Premium card opens the Premium page", async () => {
    signedInAs(ADA);
    server.use(http.get(api('/authorization/sessions'), () => HttpResponse.json([])));
    renderAt('/settings');
    await userEvent.click(await screen.findByRole('link', { name: /Learn about Premium/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium' })).toBeInTheDocument();
    expect(screen.getByText('Expected release: Coming soon')).toBeInTheDocument();
  });
});
