import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CloseIcon, LyricsIcon, MusicIcon, ScoreIcon } from '../../../components/first-load-icons';
import { ImageIcon } from '../../../components/icons';
import { useLeaveGuard } from '../use-leave-guard';
import styles from './composer-frame.module.css';

export type ComposerKind = 'media' | 'audio' | 'lyrics' | 'musicxml';

/** The four create-post pages, in the add-post chooser's order. */
const KINDS: ReadonlyArray<{ id: ComposerKind; label: string; to: string; icon: ReactNode }> = [
  { id: 'media', label: 'Media', to: '/add-post-media', icon: <ImageIcon size={18} /> },
  { id: 'audio', label: 'Audio', to: '/add-post-audio', icon: <MusicIcon size={18} /> },
  { id: 'lyrics', label: 'Lyrics', to: '/add-post-lyrics', icon: <LyricsIcon size={18} /> },
  { id: 'musicxml', label: 'MusicXML', to: '/add-post-musicxml', icon: <ScoreIcon size={18} /> },
];

export const LEAVE_MESSAGES = {
  uploading: {
    title: 'Leave while uploading?',
    message: 'Your post is still uploading. If you leave now, the upload stops and the post may not be published.',
    confirm: 'Leave',
  },
  unsaved: {
    title: 'Discard this post?',
    message: 'What you have added so far will be lost.',
    confirm: 'Discard',
  },
} as const;

interface ComposerFrameProps {
  kind: ComposerKind;
  /** What leaving now would cost: asked about before a link is followed. */
  leaving: 'uploading' | 'unsaved' | null;
  children: ReactNode;
}

/**
 * The frame of every create-post page (spec §2 Create-post pages): 'Add new post' with a close
 * link to /home and the switch between the four kinds of post. Below 1024px the page has the
 * screen to itself: no navigation bar (see composer-frame.module.css).
 */
export function ComposerFrame({ kind, leaving, children }: ComposerFrameProps) {
  const guard = useLeaveGuard(leaving !== null);
  const words = LEAVE_MESSAGES[leaving ?? 'unsaved'];
  return (
    <div className={styles.composer}>
      <header className={styles.header}>
        <Link to="/home" className={styles.close} aria-label="Close">
          <CloseIcon size={22} />
        </Link>
        <h1 className={styles.title}>Add new post</h1>
      </header>

      <nav className={styles.kinds} aria-label="Kind of post">
        {KINDS.map((k) =>
          k.id === kind ? (
            <span key={k.id} className={`${styles.kind} ${styles.kindActive}`} aria-current="page">
              {k.icon}
              <span>{k.label}</span>
            </span>
          ) : (
            <Link key={k.id} to={k.to} className={styles.kind}>
              {k.icon}
              <span>{k.label}</span>
            </Link>
          ),
        )}
      </nav>

      {children}

      <ConfirmDialog
        open={guard.destination !== null}
        title={words.title}
        message={words.message}
        confirmLabel={words.confirm}
        onConfirm={guard.leave}
        onCancel={guard.stay}
      />
    </div>
  );
}
