import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { KeyIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { enterGuestMode } from '../api';
import { Divider, GoogleButton } from './google-button';

export interface GuestMode {
  pending: boolean;
  enter: () => Promise<void>;
}

/**
 * Guest mode from the sign-in and sign-up pages: the form's error is cleared, and on success the
 * visitor moves to /home; on failure the page's form error says `failedMessage`.
 */
export function useGuestMode(setFormError: (message: string | null) => void, failedMessage: string): GuestMode {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function enter() {
    setPending(true);
    setFormError(null);
    try {
      await enterGuestMode(queryClient);
      void navigate('/home');
    } catch {
      setFormError(failedMessage);
      setPending(false);
    }
  }

  return { pending, enter };
}

interface OtherWaysInProps {
  googleLabel: string;
  /** Where the browser goes to start Google sign-in or sign-up. */
  googleHref: () => string;
  guest: GuestMode;
  disabled: boolean;
  /** Signing in with a passkey (the sign-in page, in a browser that can). */
  passkey?: { onClick: () => void; pending: boolean };
}

/** Below the sign-in and sign-up forms: the "or", the Google button, a passkey and Guest mode. */
export function OtherWaysIn({ googleLabel, googleHref, guest, disabled, passkey }: OtherWaysInProps) {
  return (
    <>
      <Divider />
      <GoogleButton label={googleLabel} href={googleHref} disabled={disabled} />
      {passkey ? (
        <button type="button" className="btn btn-secondary btn-block" onClick={passkey.onClick} disabled={disabled}>
          {passkey.pending ? <Spinner size="sm" label="" /> : <KeyIcon size={18} />}
          Sign in with a passkey
        </button>
      ) : null}
      <button type="button" className="btn btn-ghost btn-block" onClick={guest.enter} disabled={disabled}>
        {guest.pending ? <Spinner size="sm" label="" /> : null}
        Guest mode
      </button>
    </>
  );
}
