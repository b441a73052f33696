/** Wire data and a renderer shared by the admin panel's tests. */
import { createElement } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../lib/session';
import { renderPage } from '../../test/render';
import { ADA } from '../../test/session';
import { AdminPanel } from './admin-panel';
import type { ComplaintInput } from './api';

export const ROOT: CurrentUser = { ...ADA, id: '1', name: 'Root', login: 'root', is_admin: true };

export function complaint(overrides: Partial<ComplaintInput> = {}): ComplaintInput {
  return {
    id: 'r1',
    title: 'Report #r1: Spam',
    data: 'Ben reported a lyrics post by @cleo',
    reporter_id: '200',
    reporter_name: 'Ben',
    post_id: 'p1',
    reason: 'Spam',
    description: null,
    post_link: 'http://selfsound.test/app/post/p1',
    status: 'pending',
    created_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
    resolved_at: null,
    post_type: 'lyrics',
    post_exists: true,
    post_author: { id: '300', login: 'cleo', name: 'Cleo', avatar_url: '' },
    reporter: { id: '200', login: 'ben', name: 'Ben', avatar_url: '' },
    audit: [],
    ...overrides,
  };
}

/** Shows the router state the sign-in page would receive. */
function SignInProbe() {
  const { state } = useLocation() as { state: { from?: string; notice?: string; anotherAccount?: boolean } | null };
  return createElement(
    'p',
    { 'data-testid': 'sign-in' },
    `${state?.notice ?? ''} | from ${state?.from ?? ''} | another ${String(state?.anotherAccount ?? false)}`,
  );
}

/** The panel at `route` (under /admin), with a probe for /sign-in. */
export function renderPanel(route: string) {
  return renderPage(createElement(AdminPanel), {
    route,
    path: '/admin/*',
    routes: { '/sign-in': createElement(SignInProbe) },
  });
}
