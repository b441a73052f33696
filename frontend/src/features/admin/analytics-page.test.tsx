import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { signedInAs } from '../../test/session';
import type { AnalyticsCardJson, DailyCountsJson } from './api';
import { renderPanel, ROOT } from './test-fixtures';

const CARDS: AnalyticsCardJson[] = [
  { posts_title: 'Users', posts_data: 1280 },
  { posts_title: 'New users (7 days)', posts_data: 31 },
  { posts_title: 'Posts', posts_data: 5400 },
  { posts_title: 'Open reports', posts_data: 2 },
];

function days(n: number): DailyCountsJson[] {
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2026, 9, 26 + i)).toISOString().slice(0, 10),
    sign_ups: i % 3,
    posts: i,
    reports: i === 5 ? 1 : 0,
  }));
}

function analyticsServer(
  cards: () => Response = () => HttpResponse.json(CARDS),
  daily: () => Response = () => HttpResponse.json(days(30)),
) {
  const asked: string[] = [];
  server.use(
    http.get(api('/admin/analytics'), () => cards()),
    http.get(api('/admin/analytics/daily'), ({ request }) => {
      asked.push(new URL(request.url).search);
      return daily();
    }),
  );
  return asked;
}

describe('AnalyticsPage', () => {
  it('shows each card with its title and value', async () => {
    analyticsServer();
    signedInAs(ROOT);
    renderPanel('/admin/a');
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics' })).toBeInTheDocument();
    const cards = within(await screen.findByRole('list', { name: 'Totals' })).getAllByRole('listitem');
    expect(cards.map((c) => c.textContent)).toEqual(['Users1,280', 'New users (7 days)31', 'Posts5,400', 'Open reports2']);
  });

  it('draws the last 30 days: one point per day in each of the three lines, with a summary and a table', async () => {
    const asked = analyticsServer();
    signedInAs(ROOT);
    const { container } = renderPanel('/admin/a');
    const chart = await screen.findByRole('img', { name: /Sign-ups, posts and reports per day/ });
    expect(asked).toEqual(['?days=30']);
    for (const series of ['sign_ups', 'posts', 'reports']) {
      expect(container.querySelectorAll(`[data-series="${series}"] circle`)).toHaveLength(30);
    }
    expect(chart).toHaveAccessibleName(
      'Sign-ups, posts and reports per day from Oct 26 to Nov 24: 30 sign-ups, 435 posts, 1 report in all.',
    );
    // The numbers, for screen readers: a row per day.
    const table = screen.getByRole('table', { name: 'Sign-ups, posts and reports per day' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByRole('row', { name: /2026-10-31/ })).toHaveTextContent('2026-10-31251');
    // A day's numbers on hover.
    expect(container.querySelectorAll('svg title')[0]).toHaveTextContent('Oct 26: 0 sign-ups, 0 posts, 0 reports');
  });

  it('draws a single day, and says so when there is none', async () => {
    analyticsServer(undefined, () => HttpResponse.json(days(1)));
    signedInAs(ROOT);
    const { container, unmount } = renderPanel('/admin/a');
    await screen.findByRole('img', { name: /from Oct 26 to Oct 26/ });
    expect(container.querySelectorAll('[data-series="posts"] circle')).toHaveLength(1);
    unmount();
    analyticsServer(undefined, () => HttpResponse.json([]));
    renderPanel('/admin/a');
    expect(await screen.findByText('No activity to show yet.')).toBeInTheDocument();
  });

  it("says 'Admin access required' in place on a 403, with a way home", async () => {
    const refused = () => HttpResponse.json({ detail: 'Admin access required' }, { status: 403 });
    analyticsServer(refused, refused);
    signedInAs(ROOT);
    renderPanel('/admin/a');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin access required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home' })).toBeInTheDocument();
    expect(screen.queryByTestId('sign-in')).toBeNull();
  });

  it("says 'Failed to load analytics' with Try Again; the chart fails on its own", async () => {
    let fail = true;
    analyticsServer(
      () => (fail ? HttpResponse.json({ detail: 'x' }, { status: 404 }) : HttpResponse.json(CARDS)),
      () => HttpResponse.json(days(3)),
    );
    signedInAs(ROOT);
    renderPanel('/admin/a');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load analytics');
    // The chart still came.
    expect(await screen.findByRole('img', { name: /per day/ })).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Open reports')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
