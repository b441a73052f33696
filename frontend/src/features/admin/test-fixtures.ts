/** Wire data and a renderer shared by the admin panel's tests. */
import { createElement } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../lib/session';
import { renderPage } from '../../test/render';
import { ADA } from '../../test/session';
import { AdminPanel } from './admin-panel';
import type { ComplaintGroupJson, ComplaintInput } from './api';

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

/**
 * A row of the grouped to-do list (GET /admin/reports/groups) holding `complaints`, newest
 * first; about the first complaint's post, or its comment when it has one.
 */
export function group(complaints: ComplaintInput[], overrides: Partial<ComplaintGroupJson> = {}): ComplaintGroupJson {
  const first = complaints[0] ?? complaint();
  const reasons = new Map<string, number>();
  for (const c of complaints) reasons.set(c.reason, (reasons.get(c.reason) ?? 0) + 1);
  return {
    cursor: `${complaints.length}.${first.id}`,
    target_type: first.comment ? 'comment' : 'post',
    post_id: first.post_id,
    comment_id: first.comment?.id ?? null,
    count: complaints.length,
    reasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    title: first.comment ? 'comment by @dan on a lyrics post by @cleo' : 'lyrics post by @cleo',
    post_type: first.post_type,
    post_exists: first.post_exists,
    post_author: first.post_author ?? null,
    post_link: first.post_link,
    comment: first.comment ?? null,
    last_reported_at: first.created_at,
    complaints: complaints.map((c) => ({ ...c, status: c.status ?? 'pending', audit: c.audit ?? [], target_type: c.comment ? 'comment' : 'post' })),
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
