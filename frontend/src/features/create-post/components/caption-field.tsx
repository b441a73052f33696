import { useId } from 'react';
import { CAPTION_MAX_LENGTH } from '../validation';
import styles from './composer-form.module.css';

interface CaptionFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** The optional caption every kind of post can carry. */
export function CaptionField({ value, onChange, disabled = false }: CaptionFieldProps) {
  const id = useId();
  const length = [...value].length;
  return (
    <div className="field">
      <div className="field-row">
        <label className="field-label" htmlFor={id}>
          Caption <span className={styles.optional}>(optional)</span>
        </label>
        <span className="field-hint" aria-hidden="true">
          {length}/{CAPTION_MAX_LENGTH}
        </span>
      </div>
      <textarea
        id={id}
        className={`input ${styles.textarea}`}
        rows={3}
        maxLength={CAPTION_MAX_LENGTH}
        placeholder="Say something about this post"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </div>
  );
}
