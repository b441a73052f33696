/** The set-up of tests that run in jsdom (./setup.ts loads it there only). */
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

export { cleanup } from '@testing-library/react';

// findBy* and waitFor wait up to 5 s (1 s by default): under a loaded machine (make test runs
// the suites side by side) a lazy page can take longer than a second to appear.
configure({ asyncUtilTimeout: 5000 });

/** Storage, cookies and the address as a fresh tab has them. */
export function resetBrowserState(): void {
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  window.history.replaceState(null, '', '/');
}
