import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_URL } from '../../lib/config';
import { getToken, storeToken } from '../../lib/token-storage';
import { createAudioPost, createLyricsPost, createMediaPost, createMusicXmlPost } from './api';
import { NETWORK_ERROR_MESSAGE, UploadError, failureText, isAbortError, uploadPost } from './upload';

/**
 * A stand-in for the browser's XMLHttpRequest, installed for this file's tests only: it records
 * what was sent and lets a test play the browser's part (upload progress, the answer, a failure).
 */
class FakeXhr {
  static sent: FakeXhr[] = [];

  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  body: unknown = undefined;
  aborted = false;

  status = 0;
  statusText = '';
  responseText = '';
  private responseHeaders: Record<string, string> = {};

  upload: { onprogress: ((event: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  // What the browser would do.
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ loaded, total, lengthComputable } as ProgressEvent);
  }

  allSent() {
    this.upload.onload?.();
  }

  respond(status: number, body: string, headers: Record<string, string> = {}, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.onload?.();
  }

  failNetwork() {
    this.onerror?.();
  }
}

function lastXhr(): FakeXhr {
  const xhr = FakeXhr.sent.at(-1);
  if (!xhr) throw new Error('nothing was sent');
  return xhr;
}

const json = (value: unknown) => [JSON.stringify(value), { 'Content-Type': 'application/json' }] as const;

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function send(overrides: Partial<Parameters<typeof uploadPost>[0]> = {}) {
  return uploadPost({
    path: '/posts/media',
    body: { form: new FormData() },
    failureMessage: 'Failed to create post',
    ...overrides,
  });
}

describe('uploadPost', () => {
  it('POSTs to the API with cookies, the stored bearer token and the form as it is', async () => {
    storeToken('tok-123');
    const form = new FormData();
    form.append('caption', 'hi');
    const done = send({ body: { form } });
    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${API_URL}/posts/media`);
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.headers.Authorization).toBe('Bearer tok-123');
    expect(xhr.headers.Accept).toBe('application/json');
    // The browser sets the multipart boundary: no Content-Type of ours.
    expect(xhr.headers['Content-Type']).toBeUndefined();
    expect(xhr.body).toBe(form);
    xhr.respond(201, ...json({ id: '7', type: 'media' }));
    await expect(done).resolves.toEqual({ id: '7', type: 'media' });
  });

  it('sends no Authorization header when no token is stored (the cookie may still carry one)', async () => {
    const done = send();
    const xhr = lastXhr();
    expect(xhr.headers.Authorization).toBeUndefined();
    expect(xhr.withCredentials).toBe(true);
    xhr.respond(201, '');
    await expect(done).resolves.toBeUndefined();
  });

  it('sends a JSON body as JSON', async () => {
    const done = send({ path: '/posts/lyrics', body: { json: { songTitle: 'A' } } });
    const xhr = lastXhr();
    expect(xhr.headers['Content-Type']).toBe('application/json');
    expect(xhr.body).toBe('{"songTitle":"A"}');
    xhr.respond(201, ...json({ id: '1' }));
    await done;
  });

  it('reports the real fraction of the body sent, and 1 once it is all out', async () => {
    const seen: number[] = [];
    const done = send({ onProgress: (f) => seen.push(f) });
    const xhr = lastXhr();
    xhr.progress(25, 100);
    xhr.progress(10, 0, false); // the browser does not know the size: nothing to report
    xhr.progress(80, 100);
    xhr.allSent();
    expect(seen).toEqual([0.25, 0.8, 1]);
    xhr.respond(201, ...json({ id: '1' }));
    await done;
  });

  it('words a refusal with the server detail, then message, then the default', async () => {
    const cases: Array<[string, string]> = [
      [JSON.stringify({ detail: 'song.txt is not an audio file' }), 'song.txt is not an audio file'],
      [JSON.stringify({ message: 'Slow down' }), 'Slow down'],
      [JSON.stringify({ detail: [{ loc: ['body'], msg: 'bad' }] }), 'Failed to create post'],
      [JSON.stringify({}), 'Failed to create post'],
    ];
    for (const [body, expected] of cases) {
      const done = send();
      lastXhr().respond(415, body, { 'Content-Type': 'application/json' });
      await expect(done).rejects.toMatchObject({ name: 'UploadError', message: expected, status: 415 });
    }
  });

  it('words a non-JSON refusal as HTTP {status}: {text}', async () => {
    const done = send();
    lastXhr().respond(502, 'upstream went away', { 'Content-Type': 'text/plain' }, 'Bad Gateway');
    await expect(done).rejects.toThrow('HTTP 502: upstream went away');
  });

  it('does not show an HTML error page as text', async () => {
    const done = send();
    lastXhr().respond(413, '<html><body><h1>413</h1></body></html>', { 'Content-Type': 'text/html' }, 'Payload Too Large');
    await expect(done).rejects.toThrow('HTTP 413: Payload Too Large');
  });

  it('a 401 ends the stored session', async () => {
    storeToken('old-token');
    const done = send();
    lastXhr().respond(401, ...json({ detail: 'Not authenticated' }));
    const error: unknown = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 401, sessionExpired: true, message: 'Session expired. Please sign in again.' });
    expect(getToken()).toBeNull();
  });

  it('a request that never got an answer is a network error', async () => {
    const done = send();
    lastXhr().failNetwork();
    await expect(done).rejects.toMatchObject({ message: NETWORK_ERROR_MESSAGE, status: null, sessionExpired: false });
  });

  it('the signal aborts the request', async () => {
    const controller = new AbortController();
    const done = send({ signal: controller.signal });
    const xhr = lastXhr();
    controller.abort();
    expect(xhr.aborted).toBe(true);
    const error: unknown = await done.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });

  it('an aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error: unknown = await send({ signal: controller.signal }).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(FakeXhr.sent).toHaveLength(0);
  });
});

describe('failureText', () => {
  it('falls back to the status text, then the default, when the body says nothing', () => {
    expect(failureText(500, 'Internal Server Error', '', '', 'Failed to create audio post')).toBe(
      'HTTP 500: Internal Server Error',
    );
    expect(failureText(500, '', '', '', 'Failed to create audio post')).toBe('Failed to create audio post');
  });

  it('cuts a long text short', () => {
    const text = failureText(500, '', 'x'.repeat(500), 'text/plain', 'F');
    expect(text.startsWith('HTTP 500: xxx')).toBe(true);
    expect(text.length).toBeLessThan(220);
  });
});

describe('the create calls', () => {
  const mp3 = (name: string) => new File(['ID3'], name, { type: 'audio/mpeg' });

  function sentForm(): FormData {
    const body = lastXhr().body;
    if (!(body instanceof FormData)) throw new Error('not multipart');
    return body;
  }
  const names = (values: FormDataEntryValue[]) => values.map((v) => (typeof v === 'string' ? v : v.name));

  it('audio: audio_files, titles and artists in order, defaults left to the server', async () => {
    const done = createAudioPost(
      [
        { file: mp3('Morning.mp3'), title: 'Morning', artist: 'Unknown Artist' },
        { file: mp3('take2.mp3'), title: 'Evening ', artist: 'Ada' },
      ],
      '  First takes ',
    );
    const form = sentForm();
    expect(lastXhr().url).toBe(`${API_URL}/posts/audio`);
    expect(names(form.getAll('audio_files'))).toEqual(['Morning.mp3', 'take2.mp3']);
    expect(form.getAll('titles')).toEqual(['', 'Evening']);
    expect(form.getAll('artists')).toEqual(['', 'Ada']);
    expect(form.get('caption')).toBe('First takes');
    lastXhr().respond(500, '', {}, '');
    await expect(done).rejects.toThrow('Failed to create audio post');
  });

  it('MusicXML: musicxml_files, titles and composers in order, as the form shows them', async () => {
    const score = (name: string) => new File(['<score-partwise/>'], name, { type: 'application/xml' });
    const done = createMusicXmlPost(
      [
        { file: score('fugue.musicxml'), title: 'Fugue in G', composer: 'Unknown Composer' },
        { file: score('air.mxl'), title: 'Air', composer: 'Bach' },
      ],
      '',
    );
    const form = sentForm();
    expect(lastXhr().url).toBe(`${API_URL}/posts/musicxml`);
    expect(names(form.getAll('musicxml_files'))).toEqual(['fugue.musicxml', 'air.mxl']);
    expect(form.getAll('titles')).toEqual(['Fugue in G', 'Air']);
    expect(form.getAll('composers')).toEqual(['Unknown Composer', 'Bach']);
    expect(form.get('caption')).toBe('');
    lastXhr().respond(500, '', {}, '');
    await expect(done).rejects.toThrow('Failed to create MusicXML post');
  });

  it('media: files in order and the caption', async () => {
    const done = createMediaPost(
      [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.mp4', { type: 'video/mp4' })],
      'Holiday',
    );
    const form = sentForm();
    expect(lastXhr().url).toBe(`${API_URL}/posts/media`);
    expect(names(form.getAll('files'))).toEqual(['a.png', 'b.mp4']);
    expect(form.get('caption')).toBe('Holiday');
    lastXhr().respond(500, '', {}, '');
    await expect(done).rejects.toThrow('Failed to create post');
  });

  it('lyrics: the JSON body', async () => {
    const body = {
      songTitle: 'Yesterday',
      artistName: 'The Beatles',
      parts: [{ type: 'verse' as const, lyrics: 'All my troubles' }],
      caption: '',
    };
    const done = createLyricsPost(body);
    expect(lastXhr().url).toBe(`${API_URL}/posts/lyrics`);
    expect(JSON.parse(lastXhr().body as string)).toEqual(body);
    lastXhr().respond(400, '', {}, '');
    await expect(done).rejects.toThrow('Failed to create lyrics post');
  });
});
