import { useState } from 'react';
import { useIsMutating } from '@tanstack/react-query';
import { HeartIcon } from '../../../components/first-load-icons';
import { useToast } from '../../../components/toast';
import { SignInPrompt } from '../../../components/sign-in-prompt';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import { getToken } from '../../../lib/token-storage';
import { POST_MESSAGES, likeMutationKey, useLikePost } from '../api';
import type { DisplayPost } from '../types';
import styles from './like-button.module.css';

type Likeable = Pick<DisplayPost, 'id' | 'user_liked' | 'likes_count'>;

/**
 * Liking a post (spec §4 Like): `toggle` flips it at once everywhere it is cached; `pending`
 * while any like of this post is on its way (every button of the post waits). A guest is told
 * to sign in (spec §5); a session that ended says so; other failures only put the state back.
 */
export function useLike(post: Likeable) {
  const viewer = useViewer();
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const like = useLikePost(post.id);
  const pending = useIsMutating({ mutationKey: likeMutationKey(post.id) }) > 0;

  function toggle() {
    if (pending) return;
    if (viewer === null || !getToken()) {
      toasts.show(<SignInPrompt text={POST_MESSAGES.authRequired} onSignIn={() => goToSignIn()} />);
      return;
    }
    like.mutate(
      { postId: post.id, user_liked: post.user_liked, likes_count: post.likes_count },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.status === 401) {
            toasts.show(<SignInPrompt text={SESSION_EXPIRED_MESSAGE} onSignIn={() => goToSignIn()} />);
          }
        },
      },
    );
  }

  return { liked: post.user_liked, count: post.likes_count, pending, toggle };
}

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/** 999 as it is, 1200 as '1.2K'. */
export function formatCount(n: number): string {
  return n < 1000 ? String(n) : compact.format(n);
}

/**
 * The heart and its count. aria-pressed says whether the viewer likes it; while a like is on its
 * way the button is aria-disabled rather than disabled, so keyboard focus stays on it.
 */
export function LikeButton({ post, className }: { post: Likeable; className?: string }) {
  const { liked, count, pending, toggle } = useLike(post);
  // The heart pops when the viewer likes it here, not for every liked post coming on screen.
  const [popped, setPopped] = useState(false);
  return (
    <button
      type="button"
      className={[styles.like, liked ? styles.liked : '', liked && popped ? styles.pop : '', className]
        .filter(Boolean)
        .join(' ')}
      aria-pressed={liked}
      aria-disabled={pending || undefined}
      aria-label={`Like, ${count} ${count === 1 ? 'like' : 'likes'}`}
      onClick={() => {
        if (!liked && !pending) setPopped(true);
        toggle();
      }}
    >
      <HeartIcon size={22} filled={liked} className={styles.heart} />
      <span className={styles.count} aria-hidden="true">
        {formatCount(count)}
      </span>
    </button>
  );
}
