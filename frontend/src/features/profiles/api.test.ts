// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { ApiError, NetworkError } from '../../lib/http';
import { InvalidResponseError, blockErrorMessage, fetchBlockStatus, toProfile, toStats } from './api';

describe('toStats', () => {
  it('reads listenedTo, or the listened_to variant', () => {
    expect(toStats({ posts: 1, listeners: 2, listenedTo: 3 })).toEqual({ posts: 1, listeners: 2, listenedTo: 3 });
    expect(toStats({ posts: 1, listeners: 2, listened_to: 4 })).toEqual({ posts: 1, listeners: 2, listenedTo: 4 });
  });

  it('counts anything missing or odd as 0', () => {
    expect(toStats(null)).toEqual({ posts: 0, listeners: 0, listenedTo: 0 });
    expect(toStats({ posts: -1, listeners: null })).toEqual({ posts: 0, listeners: 0, listenedTo: 0 });
  });
});

describe('toProfile', () => {
  it('reads the description, or the biography, trimmed', () => {
    const base = { id: '1', name: ' Ada ', login: 'ada', avatar_url: null, tag_id: null };
    expect(toProfile({ ...base, description: ' Hi ' })).toMatchObject({ name: 'Ada', biography: 'Hi', email: null });
    expect(toProfile({ ...base, description: null, biography: 'Bio' }).biography).toBe('Bio');
    expect(toProfile({ ...base, name: null }).name).toBe('');
  });
});

describe('blockErrorMessage (spec §8 Block)', () => {
  it.each([
    [new ApiError(400, { detail: 'Nope' }), 'Error: Nope'],
    [new ApiError(500, undefined), 'Failed to update block status'],
    [new NetworkError(new TypeError('fetch failed')), 'Network error: Could not connect to server. Please check your connection.'],
    [new InvalidResponseError(), 'Server response error: Invalid response format.'],
    [new Error('weird'), 'An error occurred: weird'],
  ])('%s → %s', (error, text) => {
    expect(blockErrorMessage(error)).toBe(text);
  });
});

describe('fetchBlockStatus', () => {
  it('reads is_blocked', async () => {
    server.use(http.get(api('/profiles/blocks/check/7'), () => HttpResponse.json({ is_blocked: true })));
    await expect(fetchBlockStatus('7')).resolves.toBe(true);
  });

  it('counts a failed check as not blocked', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('/profiles/blocks/check/7'), () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    await expect(fetchBlockStatus('7')).resolves.toBe(false);
  });
});
