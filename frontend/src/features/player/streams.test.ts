import { describe, expect, it, vi } from 'vitest';
import { streamUrl, toStreams } from './streams';

const OPUS = 'audio/webm; codecs="opus"';
const AAC = 'audio/mp4; codecs="mp4a.40.2"';

describe('streams', () => {
  it('reads the wire’s renditions, skipping what is not one', () => {
    expect(toStreams(undefined)).toEqual([]);
    expect(toStreams('no')).toEqual([]);
    expect(
      toStreams([
        { url: '/media/a.weba', mime_type: OPUS, bitrate_kbps: 96 },
        { url: '', mime_type: AAC },
        null,
        { url: '/media/a.m4a', mime_type: AAC },
      ]),
    ).toEqual([
      { url: '/media/a.weba', mimeType: OPUS },
      { url: '/media/a.m4a', mimeType: AAC },
    ]);
  });

  it('streams the first rendition the browser plays, else the original', () => {
    // A browser without Opus (Safari before 2024): the AAC copy. Types are asked once each.
    const asked = vi
      .spyOn(HTMLMediaElement.prototype, 'canPlayType')
      .mockImplementation((type: string) => (type === AAC ? 'probably' : type.startsWith('audio/x-') ? 'maybe' : ''));
    const streams = [
      { url: '/media/a.weba', mimeType: OPUS },
      { url: '/media/a.m4a', mimeType: AAC },
    ];
    expect(streamUrl('/media/a.wav', streams)).toBe('/media/a.m4a');
    expect(streamUrl('/media/a.wav', streams)).toBe('/media/a.m4a');
    expect(asked.mock.calls.filter(([t]) => t === AAC)).toHaveLength(1);
    expect(streamUrl('/media/b.wav', [])).toBe('/media/b.wav');
    expect(streamUrl('/media/c.wav', [{ url: '/media/c.ogx', mimeType: 'audio/unknown' }])).toBe('/media/c.wav');
    expect(streamUrl('/media/d.wav', [{ url: '/media/d.x', mimeType: 'audio/x-mine' }])).toBe('/media/d.x');
  });
});
