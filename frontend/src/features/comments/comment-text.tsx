import { Link } from 'react-router';
import type { Mention } from './types';
import styles from './comments.module.css';

/** A piece of a comment: plain text, or an @login the server recognised as a mention. */
export type CommentSegment = { kind: 'text'; text: string } | { kind: 'mention'; text: string; mention: Mention };

const isLoginChar = (c: string) => /^[A-Za-z0-9_-]$/.test(c);

/**
 * Splits a comment into text and mentions the way the server finds them (spec §5): an `@` at
 * the start or after whitespace, then 3 to 20 letters, digits, `_` or `-`. Only logins the
 * server listed in `mentions` become mentions (they carry the user id the link needs); any
 * other @word stays text.
 */
export function splitMentions(content: string, mentions: readonly Mention[]): CommentSegment[] {
  const byLogin = new Map(mentions.map((m) => [m.login.toLowerCase(), m]));
  const segments: CommentSegment[] = [];
  let plainFrom = 0;
  let i = 0;
  while (i < content.length) {
    const atBoundary = i === 0 || /\s/.test(content[i - 1] ?? '');
    if (content[i] === '@' && atBoundary) {
      let end = i + 1;
      while (end < content.length && isLoginChar(content[end] ?? '')) end += 1;
      const login = content.slice(i + 1, end);
      const mention = login.length >= 3 && login.length <= 20 ? byLogin.get(login.toLowerCase()) : undefined;
      if (mention) {
        if (plainFrom < i) segments.push({ kind: 'text', text: content.slice(plainFrom, i) });
        segments.push({ kind: 'mention', text: content.slice(i, end), mention });
        plainFrom = end;
        i = end;
        continue;
      }
    }
    i += 1;
  }
  if (plainFrom < content.length) segments.push({ kind: 'text', text: content.slice(plainFrom) });
  return segments;
}

export function profilePath(userId: string): string {
  return `/user/${encodeURIComponent(userId)}`;
}

/**
 * A comment's words. Everything is React text, never HTML, so markup in a comment shows as
 * typed; each @login the server recognised links to that person's profile.
 */
export function CommentText({ content, mentions }: { content: string; mentions: readonly Mention[] }) {
  return (
    <p className={styles.text}>
      {splitMentions(content, mentions).map((segment, index) =>
        segment.kind === 'mention' ? (
          <Link
            key={index}
            to={profilePath(segment.mention.user_id)}
            className={styles.mention}
            title={segment.mention.name || undefined}
          >
            {segment.text}
          </Link>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
