import { setupServer } from 'msw/node';
import { API_URL } from '../lib/config';

/** The mock backend of component tests; each test adds the handlers it needs. */
export const server = setupServer();

/** Absolute URL of an API path as the app calls it. */
export const api = (path: string) => `${API_URL}${path}`;
