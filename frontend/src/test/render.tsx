import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation, type InitialEntry } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../lib/query-client';

/** The app's client (with its cross-feature invalidation), without retries or garbage collection. */
export function testQueryClient(): QueryClient {
  return createQueryClient({ queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } });
}

/** Shows where the router is, so tests can assert navigation. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location">
      {location.pathname}
      {location.search}
      {location.hash}
    </div>
  );
}

interface Options {
  /** Where the router starts: a path, or a location with router state. */
  route?: InitialEntry;
  /** The element's route pattern; other paths render a probe page. */
  path?: string;
  queryClient?: QueryClient;
  /** More pages the journey reaches, by route pattern (e.g. the sign-in page after a reset). */
  routes?: Record<string, ReactElement>;
}

/** Renders a page inside the app's providers and a memory router. */
export function renderPage(element: ReactElement, options: Options = {}) {
  const queryClient = options.queryClient ?? testQueryClient();
  const utils = render(
    <Providers client={queryClient}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>
        <Routes>
          <Route path={options.path ?? '*'} element={element} />
          {Object.entries(options.routes ?? {}).map(([path, page]) => (
            <Route key={path} path={path} element={page} />
          ))}
          <Route path="*" element={<p>Other page</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
  return { ...utils, queryClient };
}

export function currentLocation(): string {
  return document.querySelector('[data-testid="location"]')?.textContent ?? '';
}
