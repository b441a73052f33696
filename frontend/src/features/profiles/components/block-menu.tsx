import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { BanIcon } from '../../../components/icons';
import { Menu } from '../../../components/menu';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast';
import { SESSION_EXPIRED_MESSAGE } from '../../../lib/http';
import { useGoToSignIn, useSessionCheck, useViewer } from '../../../lib/session';
import { blockErrorMessage, isUnauthorized, profileQueries, useBlockToggle } from '../api';
import { BlockedNotice } from './blocked-notice';

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
  const navigate = useNavigate();
  const goToSignIn = useGoToSignIn();
  const toasts = useToast();
  const viewer = useViewer();
  const status = useQuery(profileQueries.blockStatus(viewer?.id, userId));
  const toggle = useBlockToggle();
  const session = useSessionCheck();
  // The menu stays open until the block or unblock has gone through (it reads 'Processing...').
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const isBlocked = viewer === null ? false : status.data;
  const processing = toggle.isPending || session.checking;
  const confirmation = blockConfirmation(who);

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
    // Unblocking is harmless and stays instant; blocking is asked about first (only once the
    // server has confirmed someone is signed in: a guest goes to /sign-in straight away).
    if (isBlocked) await session.whenSignedIn(() => run(false));
    else await session.whenSignedIn(() => setConfirming(true));
  }

  return (
    <Menu
      label="More options"
      menuLabel="Profile options"
      look="button"
      open={open}
      onOpenChange={setOpen}
      behindDialog={confirming}
      items={[
        {
          label: blockItemLabel(isBlocked, processing),
          icon: processing || isBlocked === undefined ? <Spinner size="sm" label="" /> : <BanIcon size={18} />,
          danger: !isBlocked,
          disabled: isBlocked === undefined || processing,
          keepOpen: true,
          onSelect: () => void onToggle(),
        },
      ]}
    >
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
    </Menu>
  );
}
