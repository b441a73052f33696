import { ApiError } from './http';

/**
 * Whether asking again may succeed: the server was busy or failing (429, 5xx), or the request
 * never reached it. A 404 or another refusal will answer the same again.
 */
export function canRetry(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  return true;
}

/** Said under an error that may pass, beside its Try Again. */
export const RETRY_WORDS = 'This may be a passing problem: check your connection and try again in a moment.';
