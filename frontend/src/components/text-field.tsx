import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shown at the right of the label, e.g. a character counter. */
  aside?: ReactNode;
  /** Replaces the plain input, e.g. an input with a button inside (gets the same ids). */
  renderInput?: (props: InputHTMLAttributes<HTMLInputElement> & { id: string }) => ReactNode;
}

/** A labelled input with its hint and its error under it, wired for screen readers. */
export function TextField({ label, error, hint, aside, renderInput, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const inputProps = {
    ...input,
    id,
    className: ['input', className].filter(Boolean).join(' '),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className="field">
      <div className="field-row">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {aside}
      </div>
      {renderInput ? renderInput(inputProps) : <input {...inputProps} />}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
