import { describe, expect, it } from 'vitest';
import { normalizeTag, splitTags, tagPath } from './tags';

describe('tags', () => {
  it('files a tag under its letters without case or accents, as the server does', () => {
    expect(normalizeTag('Café')).toBe('cafe');
    expect(normalizeTag('Dvořák')).toBe('dvorak');
    expect(normalizeTag('ÅngströM')).toBe('angstrom');
    expect(normalizeTag('東京')).toBe('東京');
    expect(normalizeTag('lo_fi')).toBe('lo_fi');
    expect(normalizeTag('2024mix')).toBe('2024mix');
    expect(normalizeTag('1')).toBeNull();
    expect(normalizeTag('')).toBeNull();
    expect(normalizeTag('no space')).toBeNull();
    expect(normalizeTag('a'.repeat(51))).toBeNull();
    expect(normalizeTag('a'.repeat(50))).toBe('a'.repeat(50));
  });

  it('cuts text into plain pieces and tags, leaving chords, numbers and addresses alone', () => {
    expect(splitTags('New #Jazz tune, #café-style! in C#m, track #1, a#b')).toEqual([
      { text: 'New ' },
      { text: '#Jazz', tag: 'jazz' },
      { text: ' tune, ' },
      { text: '#café', tag: 'cafe' },
      { text: '-style! in C#m, track #1, a#b' },
    ]);
    expect(splitTags('#folk')).toEqual([{ text: '#folk', tag: 'folk' }]);
    expect(splitTags('no tags')).toEqual([{ text: 'no tags' }]);
    expect(tagPath('東京')).toBe('/tag/%E6%9D%B1%E4%BA%AC');
  });
});
