import type { ChangeEventHandler, FocusEventHandler } from 'react';
import { PasswordChecklist } from './password-checklist';
import { PasswordInput } from './password-input';
import { TextField } from './text-field';

interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPasswordChange: ChangeEventHandler<HTMLInputElement>;
  onConfirmationChange: ChangeEventHandler<HTMLInputElement>;
  onPasswordBlur?: FocusEventHandler<HTMLInputElement>;
  onConfirmationBlur?: FocusEventHandler<HTMLInputElement>;
  /** The error shown under each field (the caller decides when: touched, submitted, from the server). */
  passwordError?: string;
  confirmationError?: string;
  disabled?: boolean;
  passwordPlaceholder?: string;
  confirmationPlaceholder?: string;
}

/**
 * "New password" with the live checklist, then "Confirm password": the pair of the reset page and
 * Settings → Password (spec §4, §5). Validation and state stay with the caller.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  onPasswordBlur,
  onConfirmationBlur,
  passwordError,
  confirmationError,
  disabled,
  passwordPlaceholder,
  confirmationPlaceholder,
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New password"
        name="new-password"
        autoComplete="new-password"
        placeholder={passwordPlaceholder}
        value={password}
        onChange={onPasswordChange}
        onBlur={onPasswordBlur}
        error={passwordError}
        disabled={disabled}
        hint={<PasswordChecklist password={password} />}
        renderInput={(props) => <PasswordInput {...props} />}
      />
      <TextField
        label="Confirm password"
        name="confirm-password"
        autoComplete="new-password"
        placeholder={confirmationPlaceholder}
        value={confirmation}
        onChange={onConfirmationChange}
        onBlur={onConfirmationBlur}
        error={confirmationError}
        disabled={disabled}
        renderInput={(props) => <PasswordInput {...props} />}
      />
    </>
  );
}
