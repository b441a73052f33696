/**
 * The music search (GET /posts/search, issues 20 and 34): pages of posts, each with why it was
 * found (`search`: where it has the words, marked), and its query factory. Here rather than in
 * the posts feature so that only the search page's chunk carries it.
 */
import { infiniteQueryOptions, keepPreviousData, type InfiniteData } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError } from '../../lib/http';
import {
  LIST_TOPICS,
  fetchPostPage,
  nextFeedCursor,
  postQueries,
  postsErrorMessage,
  retryOnlyServerErrors,
  type PostPage,
} from '../posts';

/** Which posts a search shows: every kind, or the wire's `type` of one. */
export type SearchKind = 'all' | 'audio' | 'musicxml' | 'lyrics' | 'media';

/** Why a search found a post (generated type). */
export type SearchMatchJson = components['schemas']['SearchMatchJson'];
type SearchedPostJson = components['schemas']['SearchedPostJson'];

/** A page of music found: the posts, and why each was found, by post id. */
export interface MusicPage extends PostPage {
  found: Record<string, SearchMatchJson>;
}

export type MusicPages = InfiniteData<MusicPage>;

function foundIn(list: unknown[]): Pick<MusicPage, 'found'> {
  const found: Record<string, SearchMatchJson> = {};
  for (const post of list as Partial<SearchedPostJson>[]) {
    if (post?.id != null && post.search) found[String(post.id)] = post.search;
  }
  return { found };
}

/**
 * What a failed music search says: the server's own words for a search it refused (400: a search
 * too costly to answer; 429: too many searches), else as any list of posts.
 */
export function searchErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 429) && error.serverMessage) {
    return error.serverMessage;
  }
  return postsErrorMessage(error, fallback);
}

/** Whether the posts found have only some of the words (no post has all of them). */
export function someWordsOnly(pages: MusicPages | undefined): boolean {
  const first = pages?.pages[0];
  const post = first?.posts[0];
  return post !== undefined && first?.found[post.id]?.every_word === false;
}

export const musicQueries = {
  /**
   * Posts matching `text`, best first, of one kind or all; a page is full at 10, as the feeds'.
   * Nothing is asked for text with no words. A list of posts as the feeds are (its key under
   * `postQueries.lists()`), so likes and deletions reach it as they reach them.
   */
  search: (text: string, kind: SearchKind, viewerId: string | null | undefined) =>
    infiniteQueryOptions({
      queryKey: [...postQueries.lists(), 'search', text.trim(), kind, viewerId ?? null] as const,
      queryFn: ({ pageParam, signal }): Promise<MusicPage> =>
        fetchPostPage(
          '/posts/search',
          pageParam,
          signal,
          kind === 'all' ? { q: text.trim() } : { q: text.trim(), type: kind },
          foundIn,
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last: MusicPage) => nextFeedCursor(last),
      // Only text with a word in it finds anything (letters or digits, as the server reads it).
      enabled: viewerId !== undefined && /[\p{L}\p{N}]/u.test(text),
      retry: retryOnlyServerErrors,
      // Keep the results on screen while the next words' arrive.
      placeholderData: keepPreviousData,
      meta: { shows: LIST_TOPICS },
    }),
};
