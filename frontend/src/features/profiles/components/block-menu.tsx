import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BanIcon, MoreIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { useSessionCheck, useViewer } from '../../../lib/session';
import { blockErrorMessage, isUnauthorized, profileQueries, useBlockToggle } from '../api';
import styles from './block-menu.module.css';

/** The block item's words (spec §4 Block toggle). */
export function blockItemLabel(isBlocked: boolean | undefined, processing: boolean): string {
  if (processing) return 'Processing...';
  if (isBlocked === undefined) return 'Loading...';
  return isBlocked ? 'Unblock user' : 'Block user';
}

/**
 * The menu of another user's profile: 'Block user' or 'Unblock user', and 'Cancel'. Blocking
 * sends the visitor to / (spec §4); unblocking stays. A guest counts as "not blocked" and is
 * sent to /sign-in on a click.
 */
export function BlockMenu({ userId }: { userId: string }) {
  const menuId = useId();
  const navigate = useNavigate();
  const viewer = useViewer();
  const status = useQuery(profileQueries.blockStatus(viewer?.id, userId));
  const toggle = useBlockToggle();
  const session = useSessionCheck();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const firstItemRef = useRef<HTMLButtonElement>(null);

  const isBlocked = viewer === null ? false : status.data;
  const processing = toggle.isPending || session.checking;
  const label = blockItemLabel(isBlocked, processing);

  useEffect(() => {
    if (!open) return;
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
  }, [open]);

  async function onToggle() {
    if (isBlocked === undefined || processing) return;
    const block = !isBlocked;
    await session.whenSignedIn(() =>
      toggle.mutate(
        { userId, block },
        {
          onSuccess: () => {
            setOpen(false);
            if (block) void navigate('/');
          },
          onError: (error) => {
            console.error('Block toggle failed', error);
            if (isUnauthorized(error)) {
              void navigate('/sign-in');
              return;
            }
            window.alert(blockErrorMessage(error));
          },
        },
      ),
    );
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
    </div>
  );
}
