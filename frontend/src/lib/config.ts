/** Where the API lives. Empty means the same origin as the app (the Rust binary serves both). */
export const API_URL: string = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');

/** The app's base path without the trailing slash, e.g. '/app'. Also the router basename. */
export const BASE_PATH: string = import.meta.env.BASE_URL.replace(/\/+$/, '');

/** Absolute URL of an app route, e.g. appUrl('/sign-in') → 'https://host/app/sign-in'. */
export function appUrl(route: string): string {
  return `${window.location.origin}${BASE_PATH}${route}`;
}
