import { useId } from 'react';
import { GENRES } from '../genres';

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
