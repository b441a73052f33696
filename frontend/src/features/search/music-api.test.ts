import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/http';
import { searchErrorMessage, someWordsOnly, type MusicPages } from './music-api';

describe('searchErrorMessage', () => {
  const tooMany = 'Too many searches in a short time. Please try again in 2 minutes.';
  const tooCostly = 'This search takes too long to answer: try other words, or one kind of post';
  it.each([
    [new ApiError(429, { detail: tooMany }), tooMany],
    [new ApiError(400, { detail: tooCostly }), tooCostly],
    [new ApiError(500, { detail: 'x' }), 'HTTP error! status: 500'],
    [new NetworkError(new TypeError('offline')), 'Search failed. Please try again.'],
  ])('%s → %s', (error, text) => {
    expect(searchErrorMessage(error, 'Search failed. Please try again.')).toBe(text);
  });
});

describe('someWordsOnly', () => {
  const pages = (everyWord: boolean | null): MusicPages => ({
    pageParams: [null],
    pages: [
      {
        posts: everyWord === null ? [] : [{ id: '7' } as MusicPages['pages'][number]['posts'][number]],
        received: everyWord === null ? 0 : 1,
        lastId: null,
        found: everyWord === null ? {} : { '7': { every_word: everyWord, matches: [] } },
      },
    ],
  });
  it('tells a fallback from a search whose posts have every word', () => {
    expect(someWordsOnly(pages(false))).toBe(true);
    expect(someWordsOnly(pages(true))).toBe(false);
    expect(someWordsOnly(pages(null))).toBe(false);
    expect(someWordsOnly(undefined)).toBe(false);
  });
});
