/**
 * Sending a new post with real upload progress. fetch cannot report how much of a request body
 * has gone out, so the create calls use XMLHttpRequest (`xhr.upload` progress events) and
 * otherwise behave like lib/http: the API base, cookies (`withCredentials`), the stored bearer
 * token, and errors worded from the server's `detail` or `message` (spec §8 Post creation). A
 * 401 ends the stored session as it does there.
 */
import { SESSION_EXPIRED_MESSAGE, apiUrl } from '../../lib/http';
import { clearTokens, getToken } from '../../lib/token-storage';

export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection and try again.';

/** A create call that did not succeed, with the words to show. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  /** The HTTP status, or null when the server was never reached. */
  readonly status: number | null;
  /** A 401: the stored tokens are gone, the person has to sign in again. */
  readonly sessionExpired: boolean;

  constructor(message: string, status: number | null, sessionExpired = false) {
    super(message);
    this.status = status;
    this.sessionExpired = sessionExpired;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

export interface UploadRequest {
  /** An API path, e.g. '/posts/audio'. */
  path: string;
  /** The body: multipart form data, or a value sent as JSON. */
  body: { form: FormData } | { json: unknown };
  /** What to say when the server gives no words of its own ('Failed to create audio post'). */
  failureMessage: string;
  /** How much of the body has gone out, 0 to 1; 1 means the server has it all and is working. */
  onProgress?: (fraction: number) => void;
  /** Aborts the request; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Longest server text shown as is in 'HTTP {status}: {text}'. */
const TEXT_MAX = 200;

/**
 * The words for a non-OK answer (spec §8 Post creation): the JSON `detail` or `message`, else
 * the per-type default; a body that is not JSON gives 'HTTP {status}: {text}' (an HTML error
 * page is replaced by the status text rather than shown as markup).
 */
export function failureText(
  status: number,
  statusText: string,
  body: string,
  contentType: string,
  fallback: string,
): string {
  const parsed = parseJson(body);
  if (parsed.ok) {
    const { value } = parsed;
    if (isRecord(value)) {
      if (typeof value.detail === 'string' && value.detail !== '') return value.detail;
      if (typeof value.message === 'string' && value.message !== '') return value.message;
    }
    return fallback;
  }
  const html = /html/i.test(contentType) || /^\s*</.test(body);
  const text = html ? statusText : body.trim() || statusText;
  if (!text) return fallback;
  return `HTTP ${status}: ${text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text}`;
}

/** POSTs a new post, reporting upload progress; resolves with the created post as sent. */
export function uploadPost(request: UploadRequest): Promise<unknown> {
  const { path, body, failureMessage, onProgress, signal } = request;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    let payload: FormData | string;
    if ('form' in body) {
      // The browser writes the multipart boundary itself.
      payload = body.form;
    } else {
      xhr.setRequestHeader('Content-Type', 'application/json');
      payload = JSON.stringify(body.json);
    }

    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    // Upload listeners must be in place before send(), or the browser may not report progress.
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.upload.onload = () => onProgress?.(1);

    xhr.onload = () => {
      settle();
      const text = xhr.responseText;
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = parseJson(text);
        resolve(parsed.ok ? parsed.value : undefined);
        return;
      }
      if (xhr.status === 401) {
        clearTokens();
        reject(new UploadError(SESSION_EXPIRED_MESSAGE, 401, true));
        return;
      }
      const contentType = xhr.getResponseHeader('Content-Type') ?? '';
      reject(new UploadError(failureText(xhr.status, xhr.statusText, text, contentType, failureMessage), xhr.status));
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadError(NETWORK_ERROR_MESSAGE, null));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      settle();
      reject(abortError());
    };

    xhr.send(payload);
  });
}
