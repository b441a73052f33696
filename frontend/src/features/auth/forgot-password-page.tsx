import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert } from '../../components/alert';
import { KeyIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/http';
import { requestPasswordReset } from './api';
import { AuthLayout } from './components/auth-layout';
import { validateEmail } from './validation';
import styles from './forgot-password-page.module.css';

export const FORGOT_PASSWORD_MESSAGES = {
  sent: 'If an account uses this address, we sent a link to reset its password. Check your inbox.',
  failed: 'Could not send the reset link. Please try again.',
  network: 'Network error. Please check your connection and try again.',
} as const;

type Message = { tone: 'success' | 'error'; text: string };

/** The e-mail the sign-in form held when "Forgot password?" was pressed, if any. */
function emailFrom(state: unknown): string {
  const email = typeof state === 'object' && state !== null ? (state as Record<string, unknown>).email : undefined;
  return typeof email === 'string' ? email : '';
}

/**
 * Forgot password (issue 7): asks the server to e-mail a reset link. The answer is the same
 * whether or not an account uses the address, so this page cannot be used to find accounts.
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const [email, setEmail] = useState(() => emailFrom(location.state));
  const [touched, setTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const error = validateEmail(email);
  const shownError = submitted || touched ? error : undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (error || sending) return;
    setSending(true);
    setMessage(null);
    try {
      const answer = await requestPasswordReset(email.trim());
      setMessage({ tone: 'success', text: answer?.message || FORGOT_PASSWORD_MESSAGES.sent });
    } catch (failure) {
      // 400 (a malformed address) and 429 (too many tries) come with the server's own words.
      const text =
        failure instanceof ApiError
          ? (failure.serverMessage ?? FORGOT_PASSWORD_MESSAGES.failed)
          : FORGOT_PASSWORD_MESSAGES.network;
      setMessage({ tone: 'error', text });
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      pageTitle="Forgot password"
      badge={<KeyIcon size={28} />}
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      footer={<Link to="/sign-in">Back to Sign In</Link>}
    >
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <form noValidate onSubmit={onSubmit} className="form-stack" aria-label="Request a reset link">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          onBlur={() => setTouched(true)}
          error={shownError}
          disabled={sending}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={sending}>
          {sending ? <Spinner size="sm" label="" /> : null}
          {sending ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      {message?.tone === 'success' ? (
        <p className={styles.hint}>Can&apos;t find it? Check your spam or junk folder, or send it again.</p>
      ) : null}
    </AuthLayout>
  );
}
