import { useState } from 'react';
import defaultAvatar from '../assets/default-avatar.svg';
import styles from './avatar.module.css';

interface AvatarProps {
  src: string | null | undefined;
  /** Whose picture it is; becomes the alt text. Empty for a purely decorative avatar. */
  name: string;
  size?: number;
  className?: string;
}

/** A round profile picture that falls back to the default avatar when missing or broken. */
export function Avatar({ src, name, size = 40, className }: AvatarProps) {
  // Remember which source failed, so a new src gets its own chance to load.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src && src !== failedSrc ? src : null;

  return (
    <img
      className={[styles.avatar, className].filter(Boolean).join(' ')}
      src={usable ?? defaultAvatar}
      alt={name}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => {
        if (usable) setFailedSrc(usable);
      }}
      data-fallback={usable ? undefined : 'true'}
    />
  );
}

export { defaultAvatar };
