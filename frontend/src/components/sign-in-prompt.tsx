import styles from './sign-in-prompt.module.css';

/**
 * A toast saying something needs an account (spec §5: 'Authentication required. Please sign in.'),
 * with a Sign in button. The toast lives outside the router, so the page hands over how to go
 * there (useGoToSignIn, which comes back here after signing in).
 */
export function SignInPrompt({ text, onSignIn }: { text: string; onSignIn: () => void }) {
  return (
    <span className={styles.prompt}>
      <span className={styles.text}>{text}</span>
      <button type="button" className={styles.action} onClick={onSignIn}>
        Sign in
      </button>
    </span>
  );
}
