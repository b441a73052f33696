import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import { getToken } from '../../../lib/token-storage';
import { POST_MESSAGES, useDeletePost } from '../api';
import type { DisplayPost } from '../types';
import { BinIcon, DotsIcon, FlagIcon } from './post-icons';
import { SignInPrompt } from './sign-in-prompt';
import styles from './post-menu.module.css';

// The dialogs come with their first use: cards are on the first screen, deleting and reporting
// are rare. The Report dialog is fetched as soon as its item is pointed at or focused.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));
const loadReportDialog = () => import('./report-dialog');
const ReportDialog = lazy(async () => ({ default: (await loadReportDialog()).ReportDialog }));
const prefetchReportDialog = () => void loadReportDialog();

export const POST_MENU_WORDS = {
  delete: 'Delete post',
  report: 'Report',
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
 * The three-dot menu of a post (spec §2 Post card): 'Report' on posts of others, 'Delete post'
 * (after a confirmation) on one's own, and 'Cancel', which closes the menu. A guest who picks
 * Report is asked to sign in (spec §5). Nothing shows until the session check has answered, so
 * the menu does not change under the pointer.
 */
export function PostMenu({ post, onDeleted }: PostMenuProps) {
  const viewer = useViewer();
  if (viewer === undefined) return null;
  const isAuthor = viewer !== null && viewer.id === post.userId;
  return <OptionsMenu postId={post.id} isAuthor={isAuthor} guest={viewer === null} onDeleted={onDeleted} />;
}

interface OptionsMenuProps {
  postId: string;
  isAuthor: boolean;
  guest: boolean;
  onDeleted?: () => void;
}

function OptionsMenu({ postId, isAuthor, guest, onDeleted }: OptionsMenuProps) {
  const menuId = useId();
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const remove = useDeletePost();
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<'confirm' | 'report' | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const dialogShown = useRef(false);

  useEffect(() => {
    // The menu closed when a dialog opened: focus comes back to its button after.
    if (dialog) dialogShown.current = true;
    else if (dialogShown.current) {
      dialogShown.current = false;
      triggerRef.current?.focus();
    }
  }, [dialog]);

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

  function startReport() {
    // Reporting needs an access token (spec §5): a guest is asked to sign in instead.
    if (guest || !getToken()) {
      close();
      toasts.show(<SignInPrompt text={POST_MESSAGES.authRequired} onSignIn={() => goToSignIn()} />);
      return;
    }
    setOpen(false);
    setDialog('report');
  }

  function deletePost() {
    remove.mutate(postId, {
      onSuccess: () => {
        setDialog(null);
        toasts.show(POST_MENU_WORDS.deleted);
        onDeleted?.();
      },
      onError: (error) => {
        console.error('Delete post failed', error);
        setDialog(null);
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
          {isAuthor ? (
            <button
              type="button"
              role="menuitem"
              className={`${styles.item} ${styles.danger}`}
              onClick={() => {
                // The confirmation takes over (and shows 'Deleting...' while it works).
                setOpen(false);
                setDialog('confirm');
              }}
            >
              <BinIcon size={18} />
              {POST_MENU_WORDS.delete}
            </button>
          ) : (
            <button
              type="button"
              role="menuitem"
              className={styles.item}
              onClick={startReport}
              onPointerEnter={guest ? undefined : prefetchReportDialog}
              onFocus={guest ? undefined : prefetchReportDialog}
            >
              <FlagIcon size={18} />
              {POST_MENU_WORDS.report}
            </button>
          )}
          <button type="button" role="menuitem" className={styles.item} onClick={close}>
            {POST_MENU_WORDS.cancel}
          </button>
        </div>
      ) : null}
      {dialog === 'confirm' ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={POST_MENU_WORDS.confirmTitle}
            message={POST_MENU_WORDS.confirmMessage}
            confirmLabel={POST_MENU_WORDS.confirm}
            busyLabel={POST_MENU_WORDS.deleting}
            busy={remove.isPending}
            onCancel={() => setDialog(null)}
            onConfirm={deletePost}
          />
        </Suspense>
      ) : dialog === 'report' ? (
        <Suspense fallback={null}>
          <ReportDialog postId={postId} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}
