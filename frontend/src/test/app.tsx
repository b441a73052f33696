import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Providers } from '../app/providers';
import { AppRoutes } from '../app/router';
import { LocationProbe, testQueryClient } from './render';

/** The whole app (providers and the real route table) at `path`, with a location probe. */
export function renderApp(path: string) {
  render(
    <Providers client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
}
