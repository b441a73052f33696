// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { createQueryClient, type Topic } from './query-client';

/** A cached answer of a query that shows `shows`, as another feature's factory would declare. */
function cached(client: QueryClient, queryKey: QueryKey, shows: Topic[]) {
  return client.prefetchQuery({ queryKey, queryFn: () => 'answer', meta: { shows } });
}

function succeed(client: QueryClient, changes: Topic[]) {
  return client.getMutationCache().build(client, { mutationFn: () => Promise.resolve('ok'), meta: { changes } }).execute(undefined);
}

describe('cross-feature invalidation (mutation meta.changes → query meta.shows)', () => {
  it('after a mutation succeeds, every query showing a topic it changed is stale, the rest is not', async () => {
    const client = createQueryClient();
    await cached(client, ['posts', 'feed', 'listened-to'], ['listening', 'blocks']);
    await cached(client, ['profiles', 'blocks', '1'], ['blocks']);
    await cached(client, ['search', 'profiles'], ['profile']);
    await cached(client, ['auth', 'providers'], []);

    await succeed(client, ['blocks']);

    expect(client.getQueryState(['posts', 'feed', 'listened-to'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['profiles', 'blocks', '1'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['search', 'profiles'])?.isInvalidated).toBe(false);
    expect(client.getQueryState(['auth', 'providers'])?.isInvalidated).toBe(false);
  });

  it('a failed mutation changes nothing', async () => {
    const client = createQueryClient();
    await cached(client, ['profiles', 'blocks', '1'], ['blocks']);
    const failing = client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(new Error('no')), meta: { changes: ['blocks'] } });
    await expect(failing.execute(undefined)).rejects.toThrow('no');
    expect(client.getQueryState(['profiles', 'blocks', '1'])?.isInvalidated).toBe(false);
  });
});
