import { useId } from 'react';

/**
 * The genres one chooses from: the server's list (crates/posts/src/genre.rs holds the same). Here,
 * beside the field, so that only the pages that choose one load it.
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

export const NO_GENRE = 'No genre';

interface GenreFieldProps {
  /** '' for none. */
  value: string;
  onChange: (genre: string) => void;
  disabled?: boolean;
}

/** An audio post's genre, chosen from the list (issue 31): posting it, and editing it. */
export function GenreField({ value, onChange, disabled = false }: GenreFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Genre <span className="field-hint">(optional)</span>
      </label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled}>
        <option value="">{NO_GENRE}</option>
        {GENRES.map((genre) => (
          <option key={genre} value={genre}>
            {genre}
          </option>
        ))}
      </select>
    </div>
  );
}
