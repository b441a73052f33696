import { http, HttpResponse } from 'msw';
import type { CurrentUser } from '../lib/session';
import { storeToken } from '../lib/token-storage';
import { api, server } from './server';

export const ADA: CurrentUser = {
  id: '100',
  name: 'Ada',
  login: 'ada',
  description: null,
  avatar_url: '',
  tag_id: null,
  email: 'ada@example.com',
  is_admin: false,
};

/**
 * Makes the session check answer as `user` (with a stored token), or as signed out (null).
 * Returns the handler's call count.
 */
export function signedInAs(user: CurrentUser | null): { calls: () => number } {
  let calls = 0;
  if (user) storeToken('test-token');
  server.use(
    http.get(api('/authorization/session'), () => {
      calls += 1;
      return HttpResponse.json({ user });
    }),
  );
  return { calls: () => calls };
}
