import { lazy, Suspense, useState } from 'react';
import { useHref } from 'react-router';
import { BinIcon, FlagIcon, PencilIcon, ShareIcon } from '../../../components/first-load-icons';
import { CodeIcon } from '../../../components/icons';
import { Menu } from '../../../components/menu';
import { useToast } from '../../../components/toast';
import { SignInPrompt } from '../../../components/sign-in-prompt';
import { API_URL } from '../../../lib/config';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useViewer } from '../../../lib/session';
import { getToken } from '../../../lib/token-storage';
import { loadReportDialog } from '../../reports';
import { POST_MESSAGES, useDeletePost } from '../api';
import type { DisplayPost } from '../types';

// The dialogs come with their first use: cards are on the first screen, deleting and reporting
// are rare. The Report dialog is fetched as soon as its item is pointed at or focused.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));
const ReportDialog = lazy(async () => ({ default: (await loadReportDialog()).ReportDialog }));
const loadEditDialog = () => import('./edit-post-dialog');
const EditPostDialog = lazy(async () => ({ default: (await loadEditDialog()).EditPostDialog }));
const prefetchEditDialog = () => void loadEditDialog();
const prefetchReportDialog = () => void loadReportDialog();

export const POST_MENU_WORDS = {
  edit: 'Edit post',
  edited: 'Post updated.',
  share: 'Share',
  copied: 'Link copied',
  copyFailed: (url: string) => `Could not copy the link: ${url}`,
  embed: 'Copy embed code',
  embedCopied: 'Embed code copied: paste it into a page to play this track there',
  embedFailed: 'Could not copy the embed code',
  delete: 'Delete post',
  report: 'Report',
  confirmTitle: 'Delete this post?',
  confirmMessage: 'It will be removed from your profile and from every feed. This cannot be undone.',
  confirm: 'Delete',
  deleting: 'Deleting...',
  deleted: 'Post deleted.',
  deleteFailed: 'Failed to delete post',
} as const;

export interface PostMenuProps {
  post: DisplayPost;
  /** After the post was deleted (the post page leaves; a card simply disappears from its list). */
  onDeleted?: () => void;
}

/**
 * The HTML that plays an audio post's tracks on another site: the server's embedded player
 * (`/embed/post/{id}`) in a frame of its size, as its oEmbed answer gives it (crates/api/src/embed.rs:
 * 152 px, and a 34 px row for each track, at most ten, when there are more than one).
 */
export function embedCode(postId: string, title: string, tracks: number): string {
  const src = `${API_URL || window.location.origin}/embed/post/${encodeURIComponent(postId)}`;
  const height = tracks > 1 ? 152 + 34 * Math.min(tracks, 10) : 152;
  const name = `${title} on SelfSound`.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${src}" width="560" height="${height}" style="border:0;max-width:100%" allow="autoplay" loading="lazy" title="${name}"></iframe>`;
}

/**
 * The three-dot menu of a post (spec §2 Post card), loaded when its button is first pointed at,
 * focused or pressed (`PostMenu`), and open as it comes: 'Share' for everyone (issue 19), 'Copy
 * embed code' on audio posts (issue 32), 'Report'
 * on posts of others, 'Edit post' and 'Delete post' (after a confirmation) on one's own, and 'Cancel', which
 * closes the menu. A guest who picks
 * Report is asked to sign in (spec §5). Nothing shows until the session check has answered, so
 * the menu does not change under the pointer.
 */
export function PostOptions({ post, onDeleted }: PostMenuProps) {
  const viewer = useViewer();
  if (viewer === undefined) return null;
  const isAuthor = viewer !== null && viewer.id === post.userId;
  return <OptionsMenu post={post} isAuthor={isAuthor} guest={viewer === null} onDeleted={onDeleted} />;
}

interface OptionsMenuProps {
  post: DisplayPost;
  isAuthor: boolean;
  guest: boolean;
  onDeleted?: () => void;
}

function OptionsMenu({ post, isAuthor, guest, onDeleted }: OptionsMenuProps) {
  // Open as it comes: the button that loaded it was pressed (`PostMenu`).
  const [open, setOpen] = useState(true);
  const postId = post.id;
  const toasts = useToast();
  const goToSignIn = useGoToSignIn();
  const remove = useDeletePost();
  const [dialog, setDialog] = useState<'edit' | 'confirm' | 'report' | null>(null);
  const postHref = useHref(`/post/${encodeURIComponent(postId)}`);

  /** The system's share sheet where there is one for touch (phones), else the link copied. */
  async function share() {
    const url = new URL(postHref, window.location.href).href;
    if (typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches) {
      try {
        await navigator.share({ url });
        return;
      } catch (error) {
        // Closed by the person: nothing to say. Refused by the browser: copy instead.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toasts.show(POST_MENU_WORDS.copied);
    } catch {
      toasts.show(POST_MENU_WORDS.copyFailed(url));
    }
  }

  async function copyEmbed() {
    if (post.type !== 'audio') return;
    const first = post.content[0];
    try {
      await navigator.clipboard.writeText(embedCode(postId, first ? `${first.title} · ${first.artist}` : 'A track', post.content.length));
      toasts.show(POST_MENU_WORDS.embedCopied);
    } catch {
      toasts.show(POST_MENU_WORDS.embedFailed);
    }
  }

  function startReport() {
    // Reporting needs an access token (spec §5): a guest is asked to sign in instead.
    if (guest || !getToken()) {
      toasts.show(<SignInPrompt text={POST_MESSAGES.authRequired} onSignIn={() => goToSignIn()} />);
      return;
    }
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
    <Menu
      open={open}
      onOpenChange={setOpen}
      label="Post options"
      items={[
        isAuthor && {
          label: POST_MENU_WORDS.edit,
          icon: <PencilIcon size={18} />,
          onSelect: () => setDialog('edit'),
          onIntent: prefetchEditDialog,
        },
        // The confirmation takes over (and shows 'Deleting...' while it works).
        isAuthor && {
          label: POST_MENU_WORDS.delete,
          icon: <BinIcon size={18} />,
          danger: true,
          onSelect: () => setDialog('confirm'),
        },
        !isAuthor && {
          label: POST_MENU_WORDS.report,
          icon: <FlagIcon size={18} />,
          onSelect: startReport,
          onIntent: guest ? undefined : prefetchReportDialog,
        },
        { label: POST_MENU_WORDS.share, icon: <ShareIcon size={18} />, onSelect: () => void share() },
        post.type === 'audio' && { label: POST_MENU_WORDS.embed, icon: <CodeIcon size={18} />, onSelect: () => void copyEmbed() },
      ]}
    >
      {dialog === 'edit' ? (
        <Suspense fallback={null}>
          <EditPostDialog
            post={post}
            onClose={() => setDialog(null)}
            onSaved={() => {
              setDialog(null);
              toasts.show(POST_MENU_WORDS.edited);
            }}
          />
        </Suspense>
      ) : dialog === 'confirm' ? (
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
          <ReportDialog target={{ kind: 'post', id: postId }} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </Menu>
  );
}
