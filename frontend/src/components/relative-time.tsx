import { useEffect, useState } from 'react';
import { formatRelativeTime } from '../lib/format';

/** How often the words are brought up to date ('just now' → '1m ago'). */
export const RELATIVE_TIME_REFRESH_MS = 60_000;

interface RelativeTimeProps {
  /** An ISO time, e.g. a post's created_at. */
  time: string;
  className?: string;
  /** Days in words ('3 days ago'), as notifications say them; posts say '3d ago'. */
  days?: 'short' | 'words';
}

/**
 * How long ago something happened, in spec §4's words ('just now', '5m ago', '3h ago', '2d ago',
 * then a date), kept current every minute. The full date and time show on hover and are in the
 * `dateTime` for machines; an unreadable time shows nothing.
 */
export function RelativeTime({ time, className, days }: RelativeTimeProps) {
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), RELATIVE_TIME_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()} className={className}>
      {formatRelativeTime(date, now, { days })}
    </time>
  );
}
