import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './server';

// Tests of pure logic run in Node (a `// @vitest-environment node` line at their top), the rest
// in jsdom; only those get Testing Library and the browser's state to reset (./dom.ts).
const dom = typeof document === 'undefined' ? null : await import('./dom');

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  dom?.cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
  server.resetHandlers();
  dom?.resetBrowserState();
});

afterAll(() => server.close());
