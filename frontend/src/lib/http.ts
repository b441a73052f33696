/**
 * The one way the app talks to the backend: base URL, JSON in and out, cookies always
 * (`credentials: 'include'`), the bearer token when one is stored, and errors turned into
 * `ApiError` (the server answered non-OK) or `NetworkError` (it could not be reached).
 */
import { API_URL } from './config';
import { clearTokens, getToken } from './token-storage';

export const SESSION_EXPIRED_MESSAGE = 'Session expired. Please sign in again.';

/** The server answered with a non-OK status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status code. */
  readonly status: number;
  /** The `detail` of the body as sent (a string, or a list for some validation errors). */
  readonly detail: unknown;
  /** The server's own words (`detail` if a string, else `message`), if it gave any. */
  readonly serverMessage: string | undefined;
  /** True when this 401 ended the stored session (spec §4 Login). */
  readonly sessionExpired: boolean;
  /** The HTTP reason phrase ('Not Found'), or '' when the server sent none. */
  readonly statusText: string;

  constructor(
    status: number,
    body: unknown,
    options: { sessionExpired?: boolean; statusText?: string } = {},
  ) {
    const detail = isRecord(body) ? body.detail : undefined;
    const message = isRecord(body) ? body.message : undefined;
    const serverMessage =
      typeof detail === 'string' && detail !== ''
        ? detail
        : typeof message === 'string' && message !== ''
          ? message
          : undefined;
    const sessionExpired = options.sessionExpired ?? false;
    super(
      sessionExpired
        ? SESSION_EXPIRED_MESSAGE
        : (serverMessage ?? `HTTP ${status}${options.statusText ? `: ${options.statusText}` : ''}`),
    );
    this.status = status;
    this.detail = detail;
    this.serverMessage = serverMessage;
    this.sessionExpired = sessionExpired;
    this.statusText = options.statusText ?? '';
  }
}

/** The request never got an answer (offline, DNS, connection refused, CORS). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(cause: unknown) {
    super('Network error', { cause });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls whose 401 means "your stored session is over" (spec §4 Login: profile, posts, stats
 * and media calls). Stats live under /profile and /profiles.
 */
const SESSION_SCOPED = /^\/(profile|profiles|posts|media)(\/|\?|$)/;

export function isSessionScoped(path: string): boolean {
  return SESSION_SCOPED.test(path);
}

/** A stored session just ended: which call found out, and what to tell the person. */
export interface SessionExpiry {
  path: string;
  /** SESSION_EXPIRED_MESSAGE, or the call's own words (RequestOptions.expiredNotice). */
  notice: string;
}

type SessionExpiredListener = (expiry: SessionExpiry) => void;
const sessionExpiredListeners = new Set<SessionExpiredListener>();

/** Subscribe to "the stored session just expired"; returns the unsubscribe function. */
export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionExpiredListeners.add(listener);
  return () => sessionExpiredListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as a multipart/form-data body (the browser sets the boundary). */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bypass every cache on the way (the current-user check). */
  noCache?: boolean;
  /**
   * Which token to send as bearer: the stored one (left out), a given one, or none (null).
   * Guest mode ends a session whose token it has already removed from storage.
   */
  token?: string | null;
  /**
   * What to tell the person when this call finds the session over, if not
   * SESSION_EXPIRED_MESSAGE (the blocked list says 'Please sign in to view blocked users').
   */
  expiredNotice?: string;
  /**
   * This call's 401 means the stored session is over, like the paths of isSessionScoped (the
   * account-security calls under /authorization, whose neighbours sign-in and the session check
   * answer 401 for other reasons).
   */
  sessionScoped?: boolean;
  /** Let the call finish after the page is left (a play told as the listener moves on). */
  keepalive?: boolean;
}

export function apiUrl(path: string): string {
  return `${API_URL}${path}`;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? getToken() : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }
  if (options.noCache) headers['Cache-Control'] ??= 'no-cache';

  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
      keepalive: options.keepalive,
      cache: options.noCache ? 'no-store' : 'default',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }

  const parsed = await readBody(response);
  if (!response.ok) {
    const sessionExpired = response.status === 401 && (options.sessionScoped === true || isSessionScoped(path));
    if (sessionExpired) {
      clearTokens();
      const expiry: SessionExpiry = { path, notice: options.expiredNotice ?? SESSION_EXPIRED_MESSAGE };
      for (const listener of sessionExpiredListeners) listener(expiry);
    }
    throw new ApiError(response.status, parsed, {
      sessionExpired,
      statusText: response.statusText,
    });
  }
  return parsed as T;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
