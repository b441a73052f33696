// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lyricsSections } from './lyrics-parts';

describe('lyricsSections', () => {
  it('cuts the joined text at its [Part] headings when no parts came', () => {
    expect(lyricsSections({ parts: [], lyricsText: '[Intro]\nOh\n\n[Chorus]\nLa la\n' })).toEqual([
      { label: 'Intro', text: 'Oh' },
      { label: 'Chorus', text: 'La la' },
    ]);
    expect(lyricsSections({ parts: [], lyricsText: 'Before\r\n [bridge] \r\nAfter [not a heading]' })).toEqual([
      { label: '', text: 'Before' },
      { label: 'Bridge', text: 'After [not a heading]' },
    ]);
    expect(lyricsSections({ parts: [], lyricsText: 'Just words' })).toEqual([{ label: '', text: 'Just words' }]);
    expect(lyricsSections({ parts: [], lyricsText: '' })).toEqual([]);
  });

  it('numbers verses that come back, keeps a repeated chorus plain and drops empty parts', () => {
    const parts = [
      { type: 'verse', lyrics: 'One\n' },
      { type: 'chorus', lyrics: 'La' },
      { type: 'verse', lyrics: 'Two' },
      { type: 'bridge', lyrics: '  ' },
      { type: 'chorus', lyrics: 'La' },
    ];
    expect(lyricsSections({ parts, lyricsText: 'ignored' })).toEqual([
      { label: 'Verse 1', text: 'One' },
      { label: 'Chorus', text: 'La' },
      { label: 'Verse 2', text: 'Two' },
      { label: 'Chorus', text: 'La' },
    ]);
    expect(lyricsSections({ parts: [{ type: 'verse', lyrics: 'Only' }], lyricsText: '' })).toEqual([{ label: 'Verse', text: 'Only' }]);
  });
});
