import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { BanIcon, MoreIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast';
import { SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useSessionCheck, useViewer } from '../../../lib/session';
import { blockErrorMessage, isUnauthorized, profileQueries, useBlockToggle } from '../api';
import { BlockedNotice } from './blocked-notice';
import styles from './block-menu.module.css';

/** The block item's words (spec §4 Block toggle). */
export function blockItemLabel(isBlocked: boolean | undefined, processing: boolean): string {
  if (processing) return 'Processing...';
  if (isBlocked === undefined) return 'Loading...';
  return isBlocked ? 'Unblock user' : 'Block user';
}

/** What the confirmation says about someone about to be blocked ("Ben (@ben)"). */
export function blockConfirmation(who: string) {
  return {
    title: `Block ${who}?`,
    message: `${who} will no longer be able to listen to you, and neither of you will be listening to the other. You can unblock them later in Settings.`,
    confirm: 'Block',
  };
}

interface BlockMenuProps {
  userId: string;
  /** How the confirmation and the notice name them, e.g. 'Ben (@ben)'. */
  who: string;
  /** A failed block or unblock, in spec §8's words, for the page to show. */
  onError: (message: string) => void;
}

/**
 * The menu of another user's profile: 'Block user' or 'Unblock user', and 'Cancel'. Blocking
 * asks first, then sends the visitor to / (spec §4) with a message naming who was blocked and
 * an Undo; unblocking stays. A guest counts as "not blocked" and is sent to /sign-in on a click.
 */
export function BlockMenu({ userId, who, onError }: BlockMenuProps) {
  const menuId = useId();
  const navigate = useNavigate();
  const goToSignIn = useGoToSignIn();
  const toasts = useToast();
  const viewer = useViewer();
  const status = useQuery(profileQueries.blockStatus(viewer?.id, userId));
  const toggle = useBlockToggle();
  const session = useSessionCheck();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const firstItemRef = useRef<HTMLButtonElement>(null);

  const isBlocked = viewer === null ? false : status.data;
  const processing = toggle.isPending || session.checking;
  const label = blockItemLabel(isBlocked, processing);
  const confirmation = blockConfirmation(who);

  useEffect(() => {
    // While the confirmation is up, the menu waits behind it: clicks and keys are the dialog's.
    if (!open || confirming) return;
    firstItemRef.current?.focus();
    const onPointer = (event: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        triggerRef.current?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      // Arrow keys move between the items, as in any menu.
      const items = Array.from(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
      const index = items.indexOf(document.activeElement as HTMLElement);
      const step = event.key === 'ArrowDown' ? 1 : items.length - 1;
      event.preventDefault();
      items[(index + step + items.length) % items.length]?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, confirming]);

  function run(block: boolean) {
    toggle.mutate(
      { userId, block },
      {
        onSuccess: () => {
          setOpen(false);
          if (block) {
            toasts.show(<BlockedNotice userId={userId} who={who} />);
            void navigate('/');
          }
        },
        onError: (error) => {
          console.error('Block toggle failed', error);
          setOpen(false);
          if (isUnauthorized(error)) goToSignIn(SESSION_EXPIRED_MESSAGE);
          else onError(blockErrorMessage(error));
        },
      },
    );
  }

  async function onToggle() {
    if (isBlocked === undefined || processing) return;
    // Unblocking is harmless and stays instant; blocking is asked about first (only once the
    // server has confirmed someone is signed in: a guest goes to /sign-in straight away).
    if (isBlocked) await session.whenSignedIn(() => run(false));
    else await session.whenSignedIn(() => setConfirming(true));
  }

  return (
    <div className={styles.root} ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className={`btn btn-secondary ${styles.trigger}`}
        aria-label="More options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <MoreIcon size={20} />
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label="Profile options" className={styles.menu}>
          <button
            ref={firstItemRef}
            type="button"
            role="menuitem"
            className={`${styles.item} ${isBlocked ? '' : styles.danger}`}
            onClick={() => void onToggle()}
            aria-disabled={isBlocked === undefined || processing}
          >
            {processing || isBlocked === undefined ? <Spinner size="sm" label="" /> : <BanIcon size={18} />}
            {label}
          </button>
          <button
            type="button"
            role="menuitem"
            className={styles.item}
            onClick={() => {
              setOpen(false);
              triggerRef.current?.focus();
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={confirmation.title}
        message={confirmation.message}
        confirmLabel={confirmation.confirm}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          run(true);
        }}
      />
    </div>
  );
}
