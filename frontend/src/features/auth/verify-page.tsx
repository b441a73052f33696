import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/alert';
import { MailIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatCountdown, parseCountdown } from '../../lib/format';
import { ApiError } from '../../lib/http';
import { resendVerification } from './api';
import { AuthLayout } from './components/auth-layout';
import { cooldownRemaining, startCooldown, startCooldownEndingIn, useCooldown } from './resend-cooldown';
import styles from './verify-page.module.css';

export const VERIFY_MESSAGES = {
  noEmail: 'No email address found. Please try signing up again.',
  wait: (time: string) => `Please wait ${time} before requesting another email.`,
  sent: 'Verification email sent successfully!',
  failed: 'Failed to resend email. Please try again.',
  network: 'Network error. Please try again.',
} as const;

/** The resend button's words (spec §2 Verify page). */
export function resendLabel(sending: boolean, remainingMs: number): string {
  if (sending) return 'Sending...';
  if (remainingMs > 0) return `Wait ${formatCountdown(remainingMs)}`;
  return 'Resend Email';
}

type Message = { tone: 'success' | 'error'; text: string };

export function VerifyPage() {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim();
  const { remaining, refresh } = useCooldown(email);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<Message | null>(
    email ? null : { tone: 'error', text: VERIFY_MESSAGES.noEmail },
  );

  async function onResend() {
    if (!email) {
      setMessage({ tone: 'error', text: VERIFY_MESSAGES.noEmail });
      return;
    }
    const left = cooldownRemaining(email);
    if (left > 0) {
      setMessage({ tone: 'error', text: VERIFY_MESSAGES.wait(formatCountdown(left)) });
      return;
    }
    setSending(true);
    setMessage(null);
    try {
      await resendVerification(email);
      startCooldown(email);
      setMessage({ tone: 'success', text: VERIFY_MESSAGES.sent });
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status === 429 && error.serverMessage) {
          // The server knows how long is left; count down the same time here.
          const serverWait = parseCountdown(error.serverMessage);
          if (serverWait) startCooldownEndingIn(email, serverWait);
        }
        setMessage({ tone: 'error', text: error.serverMessage ?? VERIFY_MESSAGES.failed });
      } else {
        setMessage({ tone: 'error', text: VERIFY_MESSAGES.network });
      }
    } finally {
      setSending(false);
      refresh();
    }
  }

  return (
    <AuthLayout
      title="Check Your Email"
      pageTitle="Verify your email"
      badge={<MailIcon size={28} />}
      subtitle={
        email ? (
          <>
            We sent a verification link to <strong className={styles.email}>{email}</strong>.
            Open it to activate your account.
          </>
        ) : null
      }
      footer={<Link to="/sign-in">Back to Sign In</Link>}
    >
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <button
        type="button"
        className="btn btn-primary btn-block"
        onClick={onResend}
        disabled={!email || sending || remaining > 0}
      >
        {sending ? <Spinner size="sm" label="" /> : null}
        {resendLabel(sending, remaining)}
      </button>
      <p className={styles.hint}>
        Can&apos;t find it? Check your spam or junk folder, or resend the email.
      </p>
    </AuthLayout>
  );
}
