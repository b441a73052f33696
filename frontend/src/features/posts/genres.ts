/**
 * An audio post's genre (issue 31): one of the server's list (crates/posts/src/genre.rs holds
 * the same), chosen when posting and editable later. A genre is also the post's tag.
 */
export const GENRES = [
  'Acoustic',
  'Ambient',
  'Blues',
  'Classical',
  'Country',
  'Electronic',
  'Experimental',
  'Folk',
  'Funk',
  'Hip-hop',
  'Jazz',
  'Latin',
  'Metal',
  'Pop',
  'Punk',
  'R&B',
  'Reggae',
  'Rock',
  'Soul',
  'Soundtrack',
] as const;

/** The tag a genre files its posts under: its letters, lower case (`R&B` is `rnb`). */
export function genreTag(genre: string): string {
  return genre === 'R&B' ? 'rnb' : genre.toLowerCase().replace(/[^a-z0-9]/g, '');
}
