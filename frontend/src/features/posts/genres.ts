/**
 * An audio post's genre (issue 31), chosen from the list in src/components/genre-field.tsx when
 * posting and editable later. A genre is also the post's tag.
 */

/** The tag a genre files its posts under: its letters, lower case (`R&B` is `rnb`). */
export function genreTag(genre: string): string {
  return genre === 'R&B' ? 'rnb' : genre.toLowerCase().replace(/[^a-z0-9]/g, '');
}
