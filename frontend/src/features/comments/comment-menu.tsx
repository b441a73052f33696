import { lazy, Suspense, useState } from 'react';
import { BinIcon, FlagIcon, PencilIcon } from '../../components/first-load-icons';
import { Menu } from '../../components/menu';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { useToast } from '../../components/toast';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import { useGoToSignIn, useViewer, type CurrentUser } from '../../lib/session';
import { getToken } from '../../lib/token-storage';
import { loadReportDialog } from '../reports';
import { useDeleteComment, type CommentRemovedHandler } from './api';
import type { DisplayComment } from './types';

// The dialogs come with their first use, as the post menu's do.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../components/confirm-dialog')).ConfirmDialog }));
const ReportDialog = lazy(async () => ({ default: (await loadReportDialog()).ReportDialog }));
const prefetchReportDialog = () => void loadReportDialog();

export const COMMENT_MENU_WORDS = {
  options: 'Comment options',
  edit: 'Edit',
  delete: 'Delete',
  report: 'Report',
  confirmTitle: 'Delete this comment?',
  confirmMessage: 'It will be removed for everyone. This cannot be undone.',
  confirm: 'Delete',
  deleting: 'Deleting...',
  deleted: 'Comment deleted.',
  deleteFailed: 'Failed to delete comment',
  authRequired: 'Authentication required. Please sign in.',
} as const;

/**
 * Who may delete a comment, as the server rules: its author, the post's author, or an admin.
 * The server checks again on every call; this only decides what the menu offers.
 */
export function mayDeleteComment(
  viewer: Pick<CurrentUser, 'id' | 'is_admin'> | null,
  comment: Pick<DisplayComment, 'authorId'>,
  postAuthorId: string | undefined,
): boolean {
  if (!viewer) return false;
  return viewer.id === comment.authorId || (postAuthorId !== undefined && viewer.id === postAuthorId) || viewer.is_admin === true;
}

interface CommentMenuProps {
  postId: string;
  comment: DisplayComment;
  /** The post's author, who may delete any comment on it. */
  postAuthorId?: string;
  onRemoved?: CommentRemovedHandler;
  /** Its author chose Edit: the list shows the editor in its place. */
  onEdit?: () => void;
}

/**
 * A comment's three-dot menu: 'Edit' for its author, 'Delete' (after a confirmation) for its author, the post's author
 * and admins; 'Report' on others' comments (a guest is asked to sign in, as for posts); then
 * 'Cancel'. Nothing shows until the session check has answered.
 */
export function CommentMenu({ postId, comment, postAuthorId, onRemoved, onEdit }: CommentMenuProps) {
  const viewer = useViewer();
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const remove = useDeleteComment(postId, onRemoved);
  const [dialog, setDialog] = useState<'confirm' | 'report' | null>(null);
  if (viewer === undefined) return null;

  const guest = viewer === null;
  const own = viewer !== null && viewer.id === comment.authorId;
  const mayDelete = mayDeleteComment(viewer, comment, postAuthorId);

  function startReport() {
    // Reporting needs an access token (spec §5): a guest is asked to sign in instead.
    if (guest || !getToken()) {
      toasts.show(<SignInPrompt text={COMMENT_MENU_WORDS.authRequired} onSignIn={() => goToSignIn()} />);
      return;
    }
    setDialog('report');
  }

  function deleteIt() {
    remove.mutate(comment.id, {
      onSuccess: () => {
        setDialog(null);
        toasts.show(COMMENT_MENU_WORDS.deleted);
      },
      onError: (error) => {
        console.error('Delete comment failed', error);
        setDialog(null);
        if (error instanceof ApiError && error.status === 401) {
          toasts.show(<SignInPrompt text={SESSION_EXPIRED_MESSAGE} onSignIn={() => goToSignIn()} />);
        } else {
          const detail = error instanceof ApiError ? error.serverMessage : undefined;
          toasts.show(detail ? `${COMMENT_MENU_WORDS.deleteFailed}: ${detail}` : COMMENT_MENU_WORDS.deleteFailed);
        }
      },
    });
  }

  return (
    <Menu
      label={COMMENT_MENU_WORDS.options}
      items={[
        own &&
          onEdit && {
            label: COMMENT_MENU_WORDS.edit,
            icon: <PencilIcon size={18} />,
            onSelect: onEdit,
          },
        mayDelete && {
          label: COMMENT_MENU_WORDS.delete,
          icon: <BinIcon size={18} />,
          danger: true,
          onSelect: () => setDialog('confirm'),
        },
        !own && {
          label: COMMENT_MENU_WORDS.report,
          icon: <FlagIcon size={18} />,
          onSelect: startReport,
          onIntent: guest ? undefined : prefetchReportDialog,
        },
      ]}
    >
      {dialog === 'confirm' ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={COMMENT_MENU_WORDS.confirmTitle}
            message={COMMENT_MENU_WORDS.confirmMessage}
            confirmLabel={COMMENT_MENU_WORDS.confirm}
            busyLabel={COMMENT_MENU_WORDS.deleting}
            busy={remove.isPending}
            onCancel={() => setDialog(null)}
            onConfirm={deleteIt}
          />
        </Suspense>
      ) : dialog === 'report' ? (
        <Suspense fallback={null}>
          <ReportDialog target={{ kind: 'comment', id: comment.id }} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </Menu>
  );
}
