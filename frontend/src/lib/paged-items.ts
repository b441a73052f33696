/**
 * Changing one kind of item wherever React Query keeps it: in infinite queries (`{ pages }`,
 * where a page is the list itself or an object holding it, like a post page's `posts`), in plain
 * lists and as a single item. Every optimistic or after-the-fact cache change of the app (a like,
 * a deleted post, a comment counted, notifications read, someone unblocked) goes through here,
 * so walking the pages is written once.
 *
 * What does not hold a matching item stays the same object (a page, a list, the whole answer), so
 * React Query tells only the screens showing a changed item to render again.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** What a matching item becomes; null takes it out of its list. */
export type ItemPatch<T> = (item: T) => T | null;

export interface PagedItemsOptions {
  /** The field of a page that holds its items (`'posts'`); without it a page is the list itself. */
  pageField?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function patchList<T>(list: readonly T[], match: (item: T) => boolean, patch: ItemPatch<T>): readonly T[] {
  if (!list.some(match)) return list;
  return list.flatMap((item) => {
    if (!match(item)) return [item];
    const next = patch(item);
    return next === null ? [] : [next];
  });
}

function patchPage<T>(page: unknown, match: (item: T) => boolean, patch: ItemPatch<T>, pageField?: string): unknown {
  if (pageField === undefined) return Array.isArray(page) ? patchList(page as T[], match, patch) : page;
  if (!isRecord(page) || !Array.isArray(page[pageField])) return page;
  const items = page[pageField] as T[];
  const next = patchList(items, match, patch);
  return next === items ? page : { ...page, [pageField]: next };
}

/**
 * The cached answer `data` with `patch` applied to every item `match` picks; `data` itself when
 * nothing matched. A single item that the patch would take away is left as it is: remove its
 * query instead (`queryClient.removeQueries`).
 */
export function patchItems<T>(
  data: unknown,
  match: (item: T) => boolean,
  patch: ItemPatch<T>,
  { pageField }: PagedItemsOptions = {},
): unknown {
  if (data === undefined || data === null) return data;
  if (Array.isArray(data)) return patchList(data as T[], match, patch);
  if (isRecord(data) && Array.isArray(data.pages)) {
    const pages = data.pages as unknown[];
    const next = pages.map((page) => patchPage(page, match, patch, pageField));
    return next.every((page, i) => page === pages[i]) ? data : { ...data, pages: next };
  }
  const item = data as T;
  return match(item) ? (patch(item) ?? data) : data;
}

/**
 * Applies `patch` to the items `match` picks in every cached query whose key starts with
 * `queryKey`; true when something changed. The caller vouches that those queries hold `T`s
 * (or pages of them): the key names the queries, `match` the items.
 */
export function patchPagedItems<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  match: (item: T) => boolean,
  patch: ItemPatch<T>,
  options: PagedItemsOptions = {},
): boolean {
  let matched = false;
  queryClient.setQueriesData<unknown>({ queryKey }, (data: unknown) => {
    const next = patchItems(data, match, patch, options);
    if (next !== data) matched = true;
    return next;
  });
  return matched;
}
