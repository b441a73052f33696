import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genreTag } from '../genres';
import { GENRES } from '../../../components/genre-field';

describe('genres', () => {
  it('are the server’s list, in its order', () => {
    const rust = readFileSync(resolve(process.cwd(), '../crates/posts/src/genre.rs'), 'utf8');
    const list = /pub const GENRES: \[&str; \d+\] = \[([^\]]*)\]/.exec(rust)?.[1] ?? '';
    expect([...list.matchAll(/"([^"]+)"/g)].map((m) => m[1])).toEqual([...GENRES]);
  });

  it('file under their letters, as the server’s tags', () => {
    expect(genreTag('Hip-hop')).toBe('hiphop');
    expect(genreTag('R&B')).toBe('rnb');
    expect(genreTag('Jazz')).toBe('jazz');
  });
});
