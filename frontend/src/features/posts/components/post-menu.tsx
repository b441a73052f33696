import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import { useDeletePost } from '../api';
import type { DisplayPost } from '../types';
import { BinIcon, DotsIcon } from './post-icons';
import { SignInPrompt } from './sign-in-prompt';
import styles from './post-menu.module.css';

// The confirmation comes with its first use: cards are on the first screen, deleting is rare.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

export const POST_MENU_WORDS = {
  delete: 'Delete post',
  cancel: 'Cancel',
  confirmTitle: 'Delete this post?',
  confirmMessage: 'It will be removed from your profile and from every feed. This cannot be undone.',
  confirm: 'Delete',
  deleting: 'Deleting...',
  deleted: 'Post deleted.',
  deleteFailed: 'Failed to delete post',
} as const;

interface PostMenuProps {
  post: Pick<DisplayPost, 'id' | 'userId'>;
  /** After the post was deleted (the post page leaves; a card simply disappears from its list). */
  onDeleted?: () => void;
}

/**
 * The three-dot menu of a post (spec §2 Post card). Its author can delete it (after a
 * confirmation); 'Cancel' closes the menu.
 *
 * Spec §2 also lists 'Report', which arrives with its own issue: it goes into `items` below for
 * posts of others. Until then a menu on someone else's post would hold nothing but 'Cancel', so
 * there is none.
 */
export function PostMenu({ post, onDeleted }: PostMenuProps) {
  const viewer = useViewer();
  const isAuthor = Boolean(viewer) && viewer?.id === post.userId;
  if (!isAuthor) return null;
  return <AuthorMenu postId={post.id} onDeleted={onDeleted} />;
}

function AuthorMenu({ postId, onDeleted }: { postId: string; onDeleted?: () => void }) {
  const menuId = useId();
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const remove = useDeletePost();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const confirmed = useRef(false);

  useEffect(() => {
    // The menu closed when the confirmation opened: focus comes back to its button after.
    if (confirming) confirmed.current = true;
    else if (confirmed.current) {
      confirmed.current = false;
      triggerRef.current?.focus();
    }
  }, [confirming]);

  useEffect(() => {
    if (!open) return;
    const items = () => Array.from(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    items()[0]?.focus();
    const onPointer = (event: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        triggerRef.current?.focus();
        return;
      }
      if (event.key === 'Tab') {
        setOpen(false);
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const list = items();
      const index = list.indexOf(document.activeElement as HTMLElement);
      event.preventDefault();
      list[(index + (event.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  function close() {
    setOpen(false);
    triggerRef.current?.focus();
  }

  function deletePost() {
    remove.mutate(postId, {
      onSuccess: () => {
        setConfirming(false);
        toasts.show(POST_MENU_WORDS.deleted);
        onDeleted?.();
      },
      onError: (error) => {
        console.error('Delete post failed', error);
        setConfirming(false);
        if (error instanceof ApiError && error.status === 401) {
          toasts.show(<SignInPrompt text={SESSION_EXPIRED_MESSAGE} onSignIn={() => goToSignIn()} />);
        } else {
          const detail = error instanceof ApiError ? error.serverMessage : undefined;
          toasts.show(detail ? `${POST_MENU_WORDS.deleteFailed}: ${detail}` : POST_MENU_WORDS.deleteFailed);
        }
      },
    });
  }

  return (
    <div className={styles.root} ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        aria-label="Post options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <DotsIcon size={20} />
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label="Post options" className={styles.menu}>
          <button
            type="button"
            role="menuitem"
            className={`${styles.item} ${styles.danger}`}
            onClick={() => {
              // The confirmation takes over (and shows 'Deleting...' while it works).
              setOpen(false);
              setConfirming(true);
            }}
          >
            <BinIcon size={18} />
            {POST_MENU_WORDS.delete}
          </button>
          {/* 'Report' (spec §2) goes here, for posts of others, with its issue. */}
          <button type="button" role="menuitem" className={styles.item} onClick={close}>
            {POST_MENU_WORDS.cancel}
          </button>
        </div>
      ) : null}
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={POST_MENU_WORDS.confirmTitle}
            message={POST_MENU_WORDS.confirmMessage}
            confirmLabel={POST_MENU_WORDS.confirm}
            busyLabel={POST_MENU_WORDS.deleting}
            busy={remove.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={deletePost}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
