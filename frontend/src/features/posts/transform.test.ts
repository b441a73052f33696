// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { decodePeaks, isLiked, toDisplayPost, toDisplayPosts } from './transform';
import type { PostInput } from './types';

const MUSICIAN = 'b361c6f9-9425-4548-8c07-cb408140c304';

function post(overrides: Partial<PostInput> = {}): PostInput {
  return {
    id: '7262519084019457',
    type: 'lyrics',
    caption: ' First take ',
    created_at: '2026-11-23T13:05:00Z',
    likes_count: 3,
    comments_count: 1,
    user_liked: false,
    user: { id: '42', login: 'ana', name: 'Ana', tag_id: MUSICIAN, role: MUSICIAN, avatar_url: '/static/a.svg' },
    lyrics: { title: 'Song', artist: 'Ana', lyrics_text: '[Verse]\nla la', parts: [{ type: 'verse', lyrics: 'la la' }] },
    ...overrides,
  };
}

describe('isLiked (spec §3)', () => {
  it.each([true, 1, 'true', '1'])('%j counts as liked', (value) => {
    expect(isLiked(value)).toBe(true);
  });

  it.each([false, 0, 'false', '0', null, undefined, 'yes', 2])('%j does not', (value) => {
    expect(isLiked(value)).toBe(false);
  });
});

describe('decodePeaks', () => {
  it('reads signed 8-bit min,max pairs', () => {
    // bytes 0x81 (-127), 0x7f (127), 0x00, 0x10
    const b64 = btoa(String.fromCharCode(0x81, 0x7f, 0x00, 0x10));
    expect(Array.from(decodePeaks(b64) ?? [])).toEqual([-127, 127, 0, 16]);
  });

  it('drops a trailing odd byte', () => {
    expect(Array.from(decodePeaks(btoa(String.fromCharCode(1, 2, 3))) ?? [])).toEqual([1, 2]);
  });

  it('is null for nothing, not base64, or less than a pair', () => {
    expect(decodePeaks(null)).toBeNull();
    expect(decodePeaks(undefined)).toBeNull();
    expect(decodePeaks('')).toBeNull();
    expect(decodePeaks('***')).toBeNull();
    expect(decodePeaks(btoa('x'))).toBeNull();
  });
});

describe('toDisplayPost', () => {
  it('maps the author and counts', () => {
    expect(toDisplayPost(post())).toMatchObject({
      id: '7262519084019457',
      userId: '42',
      username: 'ana',
      displayName: 'Ana',
      role: MUSICIAN,
      avatarUrl: '/static/a.svg',
      createdAt: '2026-11-23T13:05:00Z',
      editedAt: null,
      likes_count: 3,
      comments_count: 1,
      user_liked: false,
      caption: 'First take',
      type: 'lyrics',
    });
  });

  it.each([true, 1, 'true', '1'] as const)('reads user_liked %j as liked', (user_liked) => {
    expect(toDisplayPost(post({ user_liked }))?.user_liked).toBe(true);
  });

  it('reads when the post was last edited; none when it never was or the field is missing', () => {
    expect(toDisplayPost(post({ edited_at: '2026-11-25T10:00:00Z' }))?.editedAt).toBe('2026-11-25T10:00:00Z');
    expect(toDisplayPost(post({ edited_at: null }))?.editedAt).toBeNull();
    expect(toDisplayPost(post())?.editedAt).toBeNull();
  });

  it('falls back to the login for a missing name, and reads the role when tag_id is missing', () => {
    const shown = toDisplayPost(post({ user: { id: '1', login: 'bo', name: null, tag_id: null, role: MUSICIAN, avatar_url: null } }));
    expect(shown).toMatchObject({ displayName: 'bo', role: MUSICIAN, avatarUrl: null });
  });

  it('counts odd numbers as 0 and a blank caption as none', () => {
    const shown = toDisplayPost(post({ likes_count: -4, comments_count: Number.NaN, caption: '   ' }));
    expect(shown).toMatchObject({ likes_count: 0, comments_count: 0, caption: null });
  });

  it('drops unsupported types', () => {
    expect(toDisplayPost(post({ type: 'poll' }))).toBeNull();
  });

  it.each([
    ['media', { media: undefined }],
    ['media', { media: [] }],
    ['audio', { audio: null }],
    ['musicxml', { musicxml: undefined }],
    ['lyrics', { lyrics: null }],
  ])('drops a %s post without its payload', (type, payload) => {
    expect(toDisplayPost(post({ type, lyrics: undefined, ...payload }))).toBeNull();
  });

  describe('media', () => {
    it('uses display_url in cards and the original for the overlay; anything but image is video', () => {
      const shown = toDisplayPost(
        post({
          type: 'media',
          lyrics: undefined,
          media: [
            { id: 'm1', file_url: '/o/1.png', file_type: 'image', width: 1600, height: 900, poster_url: null, display_url: '/d/1.jpg' },
            { id: 'm2', file_url: '/o/2.mp4', file_type: 'video', width: null, height: null, poster_url: '/p/2.jpg', display_url: '/o/2.mp4' },
            { id: 'm3', file_url: '/o/3.mov', file_type: 'quicktime' },
          ],
        }),
      );
      expect(shown?.type).toBe('media');
      expect(shown?.content).toEqual([
        { id: 'm1', src: '/o/1.png', displaySrc: '/d/1.jpg', type: 'image', width: 1600, height: 900, poster: null },
        { id: 'm2', src: '/o/2.mp4', displaySrc: '/o/2.mp4', type: 'video', width: null, height: null, poster: '/p/2.jpg' },
        { id: 'm3', src: '/o/3.mov', displaySrc: '/o/3.mov', type: 'video', width: null, height: null, poster: null },
      ]);
    });

    it('skips items without a file and drops the post when none is left', () => {
      const json = post({ type: 'media', lyrics: undefined, media: [{ id: 'x', file_url: '', file_type: 'image' }] });
      expect(toDisplayPost(json)).toBeNull();
    });
  });

  describe('audio', () => {
    it("defaults the artist to 'Unknown Artist' and the duration to '0:00'", () => {
      const shown = toDisplayPost(
        post({
          type: 'audio',
          lyrics: undefined,
          audio: [{ title: 'Take 1', artist: ' ', cover_url: null, duration: null, file_url: '/a/1.mp3' }],
        }),
      );
      expect(shown?.content).toEqual([
        { title: 'Take 1', artist: 'Unknown Artist', coverUrl: null, duration: '0:00', durationSeconds: null, url: '/a/1.mp3', streams: [], peaks: null, loudness: null },
      ]);
    });

    it('keeps the duration, seconds, cover and decoded peaks', () => {
      const peaks = btoa(String.fromCharCode(0xf6, 0x0a));
      const shown = toDisplayPost(
        post({
          type: 'audio',
          lyrics: undefined,
          audio: [{ title: 'T', artist: 'A', cover_url: '/c.jpg', duration: '3:07', duration_seconds: 187.2, file_url: '/a.mp3', peaks }],
        }),
      );
      expect(shown?.type).toBe('audio');
      if (shown?.type !== 'audio') return;
      const [track] = shown.content;
      expect(track).toMatchObject({ duration: '3:07', durationSeconds: 187.2, coverUrl: '/c.jpg' });
      expect(Array.from(track?.peaks ?? [])).toEqual([-10, 10]);
    });

    it('writes the duration from the seconds when only those came', () => {
      const shown = toDisplayPost(
        post({
          type: 'audio',
          lyrics: undefined,
          audio: [{ title: 'T', artist: 'A', cover_url: null, duration: '', duration_seconds: 75, file_url: '/a.mp3' }],
        }),
      );
      expect(shown?.content).toEqual([expect.objectContaining({ duration: '1:15' })]);
    });
  });

  it('musicxml: title, composer and the download address', () => {
    const shown = toDisplayPost(
      post({
        type: 'musicxml',
        lyrics: undefined,
        musicxml: [
          { title: 'Fugue', composer: 'Bach', file_url: '/s/1.musicxml' },
          { title: null, composer: null, file_url: '/s/2.mxl' },
          { title: 'Air', composer: 'Unknown Composer', file_url: '/s/3.mxl' },
          { title: 'Song', composer: 'Unknown Composer Jr.', file_url: '/s/4.mxl' },
        ],
      }),
    );
    // No composer, or the spec's stand-in for none, is nothing to show.
    expect(shown?.content).toEqual([
      { fileName: 'Fugue', composer: 'Bach', downloadUrl: '/s/1.musicxml' },
      { fileName: 'Untitled', composer: '', downloadUrl: '/s/2.mxl' },
      { fileName: 'Air', composer: '', downloadUrl: '/s/3.mxl' },
      { fileName: 'Song', composer: 'Unknown Composer Jr.', downloadUrl: '/s/4.mxl' },
    ]);
  });

  describe('lyrics', () => {
    it("defaults to 'Untitled' and 'Unknown Artist'", () => {
      const shown = toDisplayPost(post({ lyrics: { title: '', artist: null, lyrics_text: 'words', parts: null } }));
      expect(shown?.content).toEqual({ title: 'Untitled', artist: 'Unknown Artist', lyricsText: 'words', parts: [] });
    });

    it('joins the parts when no lyrics_text came', () => {
      const shown = toDisplayPost(
        post({
          lyrics: {
            title: 'S',
            artist: 'A',
            lyrics_text: null,
            parts: [
              { type: 'verse', lyrics: 'one' },
              { type: 'chorus', lyrics: 'two' },
            ],
          },
        }),
      );
      expect(shown?.type === 'lyrics' && shown.content.lyricsText).toBe('[Verse]\none\n\n[Chorus]\ntwo');
    });
  });
});

describe('toDisplayPosts', () => {
  it('keeps the showable posts in order', () => {
    const shown = toDisplayPosts([post({ id: '3' }), post({ id: '2', type: 'poll' }), post({ id: '1' })]);
    expect(shown.map((p) => p.id)).toEqual(['3', '1']);
  });
});
