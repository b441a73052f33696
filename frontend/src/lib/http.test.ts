import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { api, server } from '../test/server';
import {
  ApiError,
  NetworkError,
  SESSION_EXPIRED_MESSAGE,
  isSessionScoped,
  onSessionExpired,
  request,
} from './http';
import { getToken, storeToken } from './token-storage';

describe('request', () => {
  it('calls the API base URL with JSON, cookies and the stored bearer token', async () => {
    storeToken('tok');
    let seen: Request | undefined;
    let body: unknown;
    server.use(
      http.post(api('/things'), async ({ request }) => {
        seen = request;
        body = await request.json();
        return HttpResponse.json({ id: '1' });
      }),
    );
    await expect(request('/things', { method: 'POST', json: { a: 1 } })).resolves.toEqual({ id: '1' });
    expect(seen?.headers.get('authorization')).toBe('Bearer tok');
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(seen?.credentials).toBe('include');
    expect(body).toEqual({ a: 1 });
  });

  it('sends no Authorization header when no token is stored, or when told not to', async () => {
    const seen: Array<string | null> = [];
    server.use(
      http.get(api('/open'), ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json({});
      }),
    );
    await request('/open');
    storeToken('tok');
    await request('/open', { token: null });
    await request('/open', { token: 'other' });
    expect(seen).toEqual([null, null, 'Bearer other']);
  });

  it('turns {detail} into an ApiError carrying the status and the server words', async () => {
    server.use(http.get(api('/x'), () => HttpResponse.json({ detail: 'Nope' }, { status: 400 })));
    const error = await request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'Nope', serverMessage: 'Nope', detail: 'Nope' });
  });

  it('falls back to {message}, then to the status', async () => {
    server.use(
      http.get(api('/m'), () => HttpResponse.json({ message: 'Said so' }, { status: 409 })),
      http.get(api('/empty'), () => new HttpResponse(null, { status: 502 })),
    );
    await expect(request('/m')).rejects.toMatchObject({ status: 409, serverMessage: 'Said so' });
    const error = await request('/empty').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, serverMessage: undefined });
    expect((error as ApiError).message).toMatch(/^HTTP 502/);
  });

  it('keeps a list detail (validation errors) as sent', async () => {
    const detail = [{ loc: ['body', 'email'], msg: 'bad' }];
    server.use(http.post(api('/v'), () => HttpResponse.json({ detail }, { status: 422 })));
    await expect(request('/v', { method: 'POST' })).rejects.toMatchObject({ status: 422, detail });
  });

  it('sends a FormData body as multipart, without forcing a JSON content type', async () => {
    let contentType: string | null = null;
    let field: unknown = null;
    server.use(
      http.patch(api('/upload'), async ({ request }) => {
        contentType = request.headers.get('content-type');
        field = (await request.formData()).get('avatar');
        return HttpResponse.json({ ok: true });
      }),
    );
    const form = new FormData();
    form.append('avatar', new Blob(['png-bytes'], { type: 'image/png' }), 'a.png');
    await request('/upload', { method: 'PATCH', form });
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    // (jsdom's form parts lose their file name in Node's fetch; the browser e2e test uploads a real file.)
    expect(field).toMatchObject({ size: 'png-bytes'.length, type: 'image/png' });
  });

  it('keeps the reason phrase of a failed answer', async () => {
    server.use(
      http.get(api('/down-phrase'), () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })),
    );
    await expect(request('/down-phrase')).rejects.toMatchObject({ status: 503, statusText: 'Service Unavailable' });
  });

  it('reports an unreachable server as a NetworkError', async () => {
    server.use(http.get(api('/down'), () => HttpResponse.error()));
    await expect(request('/down')).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('401 handling (spec §4 Login)', () => {
  it.each(['/profile/me/profile', '/profiles/7/stats', '/posts/feed?limit=10&offset=0', '/media/abc'])(
    'a 401 on %s clears the stored tokens and reports the session expired',
    async (path) => {
      storeToken('old');
      const listener = vi.fn();
      const unsubscribe = onSessionExpired(listener);
      server.use(
        http.all(`${api('')}/*`, () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })),
      );
      const error = await request(path).catch((e: unknown) => e);
      unsubscribe();
      expect(error).toMatchObject({ status: 401, sessionExpired: true, message: SESSION_EXPIRED_MESSAGE });
      expect(getToken()).toBeNull();
      expect(listener).toHaveBeenCalledOnce();
    },
  );

  it('a 401 elsewhere (e.g. the sign-in check) keeps the tokens and the server words', async () => {
    storeToken('kept');
    server.use(
      http.get(api('/authorization/me'), () => HttpResponse.json({ detail: 'Not signed in' }, { status: 401 })),
    );
    await expect(request('/authorization/me')).rejects.toMatchObject({
      sessionExpired: false,
      message: 'Not signed in',
    });
    expect(getToken()).toBe('kept');
  });

  it('a call marked sessionScoped (the account-security calls) ends the session on its 401 too', async () => {
    storeToken('old');
    const listener = vi.fn();
    const unsubscribe = onSessionExpired(listener);
    server.use(
      http.get(api('/authorization/sessions'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })),
    );
    const error = await request('/authorization/sessions', { sessionScoped: true }).catch((e: unknown) => e);
    unsubscribe();
    expect(error).toMatchObject({ status: 401, sessionExpired: true, message: SESSION_EXPIRED_MESSAGE });
    expect(getToken()).toBeNull();
    expect(listener).toHaveBeenCalledWith({ path: '/authorization/sessions', notice: SESSION_EXPIRED_MESSAGE });
  });

  it('knows which calls are session-scoped', () => {
    expect(isSessionScoped('/profile')).toBe(true);
    expect(isSessionScoped('/posts/1/like')).toBe(true);
    expect(isSessionScoped('/profilesX')).toBe(false);
    expect(isSessionScoped('/authorization/me')).toBe(false);
    expect(isSessionScoped('/notifications')).toBe(false);
  });
});
