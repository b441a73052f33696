import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { API_URL } from '../lib/config';

/** Absolute URL of an API path as the app calls it. */
export const api = (path: string) => `${API_URL}${path}`;

/**
 * The mock backend of component tests; each test adds the handlers it needs. Nobody is signed
 * in unless a test says so (test/session.ts), since the shell and the sign-in page both ask;
 * nothing is unread.
 */
export const server = setupServer(
  http.get(api('/authorization/session'), () => HttpResponse.json({ user: null })),
  // The nav bar shows a signed-in viewer's unread count (features/notifications).
  http.get(api('/notifications/unread-count'), () => HttpResponse.json({ unread: 0 })),
  // A complaint's details in the admin panel ask whether the reported author is suspended.
  http.get(api('/admin/users/:id/suspend'), () => HttpResponse.json({ suspended: false, suspension: null })),
);
