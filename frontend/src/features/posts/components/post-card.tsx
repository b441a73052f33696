import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CommentIcon, LyricsIcon, PlayMarkIcon, RepostIcon, ScoreIcon } from '../../../components/first-load-icons';
import { AudioTrack, type TrackMark } from '../../player';
import type { DisplayPost, LyricsContent, MusicXmlItem } from '../types';
import { LikeButton, formatCount } from './like-button';
import { RepostButton } from './repost-button';
import { MediaGrid } from './media-grid';
import { DownloadLink } from './download-link';
import { LyricsParts, lyricsSections } from './lyrics-parts';
import { PostHeader } from './post-header';
import { TaggedText } from './tagged-text';
import { genreTag } from '../genres';
import { tagPath } from '../tags';
import styles from './post-card.module.css';

export const POST_CARD_WORDS = {
  seeMore: 'See more',
  openScore: 'Open score',
} as const;

export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

/** The comment control's name: 'Comments, 2 comments'. */
function commentsLabel(count: number): string {
  return `Comments, ${count} ${count === 1 ? 'comment' : 'comments'}`;
}

/** The comment button: its count, opening the post page where the comments are (spec §2). */
export function CommentLink({ post }: { post: Pick<DisplayPost, 'id' | 'comments_count'> }) {
  const count = post.comments_count;
  return (
    <Link to={postPath(post.id)} className={styles.comments} aria-label={commentsLabel(count)}>
      <CommentIcon size={21} />
      <span aria-hidden="true">{formatCount(count)}</span>
    </Link>
  );
}

const wholeNumber = new Intl.NumberFormat('en-US');

/** '1 play', '1,204 plays' (issue 31). */
export function playsText(count: number): string {
  return `${wholeNumber.format(count)} ${count === 1 ? 'play' : 'plays'}`;
}

/** How often an audio or sheet music post was played, once it has been (issue 31). */
function PlayCount({ post }: { post: DisplayPost }) {
  if ((post.type !== 'audio' && post.type !== 'musicxml') || post.plays_count <= 0) return null;
  return (
    <span className={styles.plays} title="Counted once per listener and track each hour">
      <PlayMarkIcon size={14} />
      {playsText(post.plays_count)}
    </span>
  );
}

/** The id of the post page's comments heading, where a post in full leads with its count. */
export const POST_COMMENTS_HEADING_ID = 'post-comments-heading';

/** On the post page: the count goes down to the comments, and into the comment box if there is one. */
function CommentCount({ count }: { count: number }) {
  return (
    <button
      type="button"
      className={`${styles.comments} ${styles.commentCount}`}
      aria-label={commentsLabel(count)}
      onClick={() => {
        document.getElementById(POST_COMMENTS_HEADING_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        document.querySelector<HTMLTextAreaElement>('#comments textarea')?.focus({ preventScroll: true });
      }}
    >
      <CommentIcon size={21} />
      <span aria-hidden="true">{formatCount(count)}</span>
    </button>
  );
}

function LyricsBody({ postId, lyrics }: { postId: string; lyrics: LyricsContent }) {
  return (
    <div className={styles.lyrics}>
      <span className={styles.lyricsMark} aria-hidden="true">
        <LyricsIcon size={20} />
      </span>
      <h3 className={styles.lyricsTitle}>{lyrics.title}</h3>
      <p className={styles.lyricsArtist}>{lyrics.artist}</p>
      <LyricsParts sections={lyricsSections(lyrics)} className={styles.lyricsText} />
      <Link to={postPath(postId)} className={styles.seeMore} aria-label={`${POST_CARD_WORDS.seeMore}: ${lyrics.title}`}>
        {POST_CARD_WORDS.seeMore}
      </Link>
    </div>
  );
}

function ScoresBody({ postId, scores }: { postId: string; scores: readonly MusicXmlItem[] }) {
  return (
    <div className={styles.scores}>
      <ul className={styles.scoreList}>
        {scores.map((score, index) => (
          <li key={`${score.downloadUrl}-${index}`} className={styles.score}>
            <span className={styles.scoreIcon} aria-hidden="true">
              <ScoreIcon size={22} />
            </span>
            <span className={styles.scoreText}>
              <span className={styles.scoreTitle}>{score.fileName}</span>
              <span className={styles.scoreComposer}>{score.composer}</span>
            </span>
            <DownloadLink
              url={score.downloadUrl}
              title={score.fileName}
              className={styles.download}
              textClassName={styles.downloadText}
            />
          </li>
        ))}
      </ul>
      <Link to={postPath(postId)} className={`btn btn-secondary ${styles.openScore}`}>
        <ScoreIcon size={18} />
        {POST_CARD_WORDS.openScore}
      </Link>
    </div>
  );
}

/** `detail`: on the post page, where each track can also be downloaded (issue 19). */
function PostBody({
  post,
  detail,
  first,
  trackMarks,
}: {
  post: DisplayPost;
  detail: boolean;
  first: boolean;
  trackMarks?: readonly (readonly TrackMark[])[];
}) {
  switch (post.type) {
    case 'media':
      return <MediaGrid items={post.content} first={first} />;
    case 'audio':
      return (
        <div className={styles.tracks}>
          {post.genre ? (
            <Link to={tagPath(genreTag(post.genre))} className={styles.genre}>
              {post.genre}
            </Link>
          ) : null}
          {post.content.map((item, i) =>
            detail ? (
              <div key={`${item.url}-${i}`} className={styles.trackWithDownload}>
                <AudioTrack postId={post.id} track={item} index={i} marks={trackMarks?.[i]} />
                <DownloadLink
                  url={item.url}
                  title={item.title}
                  className={styles.download}
                  textClassName={styles.downloadText}
                />
              </div>
            ) : (
              <AudioTrack key={`${item.url}-${i}`} postId={post.id} track={item} index={i} />
            ),
          )}
        </div>
      );
    case 'lyrics':
      return <LyricsBody postId={post.id} lyrics={post.content} />;
    case 'musicxml':
      return <ScoresBody postId={post.id} scores={post.content} />;
  }
}

interface PostCardProps {
  post: DisplayPost;
  /**
   * 'card': in a feed or a list. 'detail': on the post page, with the comments right below, so
   * there is no link to them. There a post with a `fullView` (lyrics in full, scores drawn) gets
   * the page's frame and its count becomes a button down to the comments; media and audio posts
   * stay as their card.
   */
  variant?: 'card' | 'detail';
  /** The post page's own body for the post, instead of the card's (with variant 'detail'). */
  fullView?: ReactNode;
  /** After the author deleted it from the menu. */
  onDeleted?: () => void;
  /**
   * The first post a page shows (a list's first, the post page's own): its pictures load at
   * once and first, not lazily, as they are likely the page's largest paint (issue 19).
   */
  first?: boolean;
  /** The timed comments along each of an audio post's tracks, by track (the post page). */
  trackMarks?: readonly (readonly TrackMark[])[];
}

/**
 * A post (spec §2 Post card, Post page): the author, the caption, the content by type, then the
 * like and comment buttons. The post page shows it too, as `variant="detail"`.
 */
export function PostCard({ post, variant = 'card', fullView, onDeleted, first = false, trackMarks }: PostCardProps) {
  const headingId = `post-${post.id}-author`;
  const full = variant === 'detail' && fullView !== undefined;
  return (
    <article
      className={full ? `${styles.card} ${styles.full}` : styles.card}
      aria-labelledby={headingId}
      data-post-type={post.type}
    >
      <span id={headingId} className="visually-hidden">
        {`Post by ${post.displayName || post.username}`}
      </span>
      {post.repostedBy ? (
        <p className={styles.reposted}>
          <RepostIcon size={14} />
          Reposted by{' '}
          <Link to={`/user/${encodeURIComponent(post.repostedBy.userId)}`}>{post.repostedBy.name}</Link>
        </p>
      ) : null}
      <PostHeader post={post} onDeleted={onDeleted} />
      {post.caption ? (
        <p className={styles.caption}>
          <TaggedText text={post.caption} />
        </p>
      ) : null}
      <div className={styles.body}>{full ? fullView : <PostBody post={post} detail={variant === 'detail'} first={first} trackMarks={trackMarks} />}</div>
      <footer className={styles.actions}>
        <LikeButton post={post} />
        <RepostButton post={post} />
        {variant === 'card' ? <CommentLink post={post} /> : full ? <CommentCount count={post.comments_count} /> : null}
        <PlayCount post={post} />
      </footer>
    </article>
  );
}
