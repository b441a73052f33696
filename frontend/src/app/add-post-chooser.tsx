import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LyricsIcon, MusicIcon, ScoreIcon } from '../components/first-load-icons';
import { ImageIcon } from '../components/icons';
import { Modal } from '../components/modal';
import { useGoToSignIn } from '../lib/session';
import styles from './add-post-chooser.module.css';

/** The four kinds of post and their pages (spec §2 Navigation bar). */
export const ADD_POST_OPTIONS = [
  { id: 'media', label: 'Media', description: 'Images and videos', to: '/add-post-media' },
  { id: 'audio', label: 'Audio', description: 'Tracks and recordings', to: '/add-post-audio' },
  { id: 'lyrics', label: 'Lyrics', description: 'Song words, part by part', to: '/add-post-lyrics' },
  { id: 'musicxml', label: 'MusicXML', description: 'Sheet music files', to: '/add-post-musicxml' },
] as const;

const ICONS: Record<(typeof ADD_POST_OPTIONS)[number]['id'], ReactNode> = {
  media: <ImageIcon size={22} />,
  audio: <MusicIcon size={22} />,
  lyrics: <LyricsIcon size={22} />,
  musicxml: <ScoreIcon size={22} />,
};

/** What a guest is told before choosing: posting needs an account. */
export const GUEST_WORDS = {
  title: 'Sign in to share',
  text: 'Share tracks, videos, lyrics and sheet music with SelfSound. Signing in takes a moment; signing up is free.',
  signIn: 'Sign in',
  signUp: 'Sign up',
} as const;

/**
 * The add-post button's chooser: Media, Audio, Lyrics, MusicXML (spec §2 Navigation bar). A
 * guest is asked to sign in here, before choosing, rather than after (signing in comes back to
 * the page they were on).
 */
export function AddPostChooser({ open, onClose, guest = false }: { open: boolean; onClose: () => void; guest?: boolean }) {
  if (guest) return <GuestPrompt open={open} onClose={onClose} />;
  return (
    <Modal open={open} onClose={onClose} title="Add new post" description="What would you like to share?">
      <ul className={styles.list}>
        {ADD_POST_OPTIONS.map((option) => (
          <li key={option.id}>
            <Link to={option.to} className={styles.option} onClick={onClose}>
              <span className={`${styles.icon} ${styles[option.id]}`}>{ICONS[option.id]}</span>
              <span className={styles.text}>
                <span className={styles.label}>{option.label}</span>
                <span className={styles.description}>{option.description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

function GuestPrompt({ open, onClose }: { open: boolean; onClose: () => void }) {
  const goToSignIn = useGoToSignIn();
  return (
    <Modal open={open} onClose={onClose} title={GUEST_WORDS.title} description={GUEST_WORDS.text}>
      <div className="dialog-buttons">
        <Link to="/sign-up" className="btn btn-secondary" onClick={onClose}>
          {GUEST_WORDS.signUp}
        </Link>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            onClose();
            goToSignIn();
          }}
        >
          {GUEST_WORDS.signIn}
        </button>
      </div>
    </Modal>
  );
}
