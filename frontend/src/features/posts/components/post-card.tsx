import { Link } from 'react-router';
import { AudioTrack } from '../../player';
import type { DisplayPost, LyricsContent, MusicXmlItem } from '../types';
import { LikeButton, formatCount } from './like-button';
import { MediaGrid } from './media-grid';
import { CommentIcon, DownloadIcon, QuoteIcon, SheetIcon } from './post-icons';
import { PostHeader } from './post-header';
import styles from './post-card.module.css';

export const POST_CARD_WORDS = {
  seeMore: 'See more',
  openScore: 'Open score',
  download: 'Download',
} as const;

export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

/** The comment button: its count, opening the post page where the comments are (spec §2). */
export function CommentLink({ post }: { post: Pick<DisplayPost, 'id' | 'comments_count'> }) {
  const count = post.comments_count;
  return (
    <Link
      to={postPath(post.id)}
      className={styles.comments}
      aria-label={`Comments, ${count} ${count === 1 ? 'comment' : 'comments'}`}
    >
      <CommentIcon size={21} />
      <span aria-hidden="true">{formatCount(count)}</span>
    </Link>
  );
}

function LyricsBody({ postId, lyrics }: { postId: string; lyrics: LyricsContent }) {
  return (
    <div className={styles.lyrics}>
      <span className={styles.lyricsMark} aria-hidden="true">
        <QuoteIcon size={20} />
      </span>
      <h3 className={styles.lyricsTitle}>{lyrics.title}</h3>
      <p className={styles.lyricsArtist}>{lyrics.artist}</p>
      {lyrics.lyricsText ? <p className={styles.lyricsText}>{lyrics.lyricsText}</p> : null}
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
              <SheetIcon size={22} />
            </span>
            <span className={styles.scoreText}>
              <span className={styles.scoreTitle}>{score.fileName}</span>
              <span className={styles.scoreComposer}>{score.composer}</span>
            </span>
            <a
              href={score.downloadUrl}
              download
              className={styles.download}
              aria-label={`${POST_CARD_WORDS.download} ${score.fileName}`}
            >
              <DownloadIcon size={18} />
              <span className={styles.downloadText}>{POST_CARD_WORDS.download}</span>
            </a>
          </li>
        ))}
      </ul>
      <Link to={postPath(postId)} className={`btn btn-secondary ${styles.openScore}`}>
        <SheetIcon size={18} />
        {POST_CARD_WORDS.openScore}
      </Link>
    </div>
  );
}

function PostBody({ post }: { post: DisplayPost }) {
  switch (post.type) {
    case 'media':
      return <MediaGrid items={post.content} />;
    case 'audio':
      return (
        <div className={styles.tracks}>
          {post.content.map((item, i) => (
            <AudioTrack key={`${item.url}-${i}`} postId={post.id} track={item} index={i} />
          ))}
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
  /** Hide the comment button (the post page shows the comments below instead). */
  hideComments?: boolean;
  /** After the author deleted it from the menu. */
  onDeleted?: () => void;
}

/**
 * A post in a feed or a profile list (spec §2 Post card): the author, the caption, the content
 * by type, then the like and comment buttons.
 */
export function PostCard({ post, hideComments = false, onDeleted }: PostCardProps) {
  const headingId = `post-${post.id}-author`;
  return (
    <article className={styles.card} aria-labelledby={headingId} data-post-type={post.type}>
      <span id={headingId} className="visually-hidden">
        {`Post by ${post.displayName || post.username}`}
      </span>
      <div className={styles.head}>
        <PostHeader post={post} onDeleted={onDeleted} />
      </div>
      {post.caption ? <p className={styles.caption}>{post.caption}</p> : null}
      <div className={styles.body}>
        <PostBody post={post} />
      </div>
      <footer className={styles.actions}>
        <LikeButton post={post} />
        {hideComments ? null : <CommentLink post={post} />}
      </footer>
    </article>
  );
}
