import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LyricsIcon, MusicIcon, ScoreIcon } from '../components/first-load-icons';
import { ImageIcon } from '../components/icons';
import { Modal } from '../components/modal';
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

/**
 * The add-post button's chooser: Media, Audio, Lyrics, MusicXML (spec §2 Navigation bar). Guests
 * have no add-post button: the nav bar offers them Sign in and Sign up instead.
 */
export function AddPostChooser({ open, onClose }: { open: boolean; onClose: () => void }) {
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
