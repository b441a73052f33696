import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RepostIcon } from '../../../components/first-load-icons';
import { useToast } from '../../../components/toast';
import { SignInPrompt } from '../../../components/sign-in-prompt';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import { getToken } from '../../../lib/token-storage';
import { POST_MESSAGES, patchCachedPost } from '../api';
import type { DisplayPost } from '../types';
import { formatCount } from './like-button';
import styles from './like-button.module.css';

type Repostable = Pick<DisplayPost, 'id' | 'userId' | 'user_reposted' | 'reposts_count'>;

function repostsText(count: number): string {
  return `${count} ${count === 1 ? 'repost' : 'reposts'}`;
}

/**
 * Reposting a post to one's listeners (issue 31), beside the like: pressed while the viewer
 * reposts it, optimistic as the like is (the toggle itself is loaded on the first press). A
 * guest is asked to sign in; a refusal shows the server's words. On one's own post there is
 * nothing to press: the count shows once someone reposted it.
 */
export function RepostButton({ post }: { post: Repostable }) {
  const viewer = useViewer();
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const count = post.reposts_count;
  if (viewer?.id === post.userId) {
    return count > 0 ? (
      <span className={styles.like} role="img" aria-label={repostsText(count)}>
        <RepostIcon size={20} />
        <span aria-hidden="true">{formatCount(count)}</span>
      </span>
    ) : null;
  }
  const reposted = post.user_reposted;
  const press = () => {
    if (pending) return;
    if (!viewer || !getToken()) {
      toasts.show(<SignInPrompt text={POST_MESSAGES.authRequired} onSignIn={() => goToSignIn()} />);
      return;
    }
    setPending(true);
    const before = { user_reposted: reposted, reposts_count: count };
    patchCachedPost(queryClient, post.id, { user_reposted: !reposted, reposts_count: Math.max(0, count + (reposted ? -1 : 1)) });
    import('../repost-toggle')
      .then(({ sendRepost }) => sendRepost(queryClient, post.id, before))
      .catch((error: unknown) => {
        if (!(error instanceof ApiError)) return;
        if (error.status === 401) toasts.show(<SignInPrompt text={SESSION_EXPIRED_MESSAGE} onSignIn={() => goToSignIn()} />);
        else if (error.serverMessage) toasts.show(error.serverMessage);
      })
      .finally(() => setPending(false));
  };
  return (
    <button
      type="button"
      className={`${styles.like} ${styles.repost} ${reposted ? styles.reposted : ''}`}
      aria-pressed={reposted}
      aria-disabled={pending || undefined}
      aria-label={`Repost, ${repostsText(count)}`}
      title={reposted ? 'Reposted to your listeners: press to undo' : 'Repost to your listeners'}
      onClick={press}
    >
      <RepostIcon size={20} />
      <span className={styles.count} aria-hidden="true">
        {formatCount(count)}
      </span>
    </button>
  );
}
