import { useCallback, useId, useMemo, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { BackButton } from '../../components/back-button';
import { LyricsIcon } from '../../components/first-load-icons';
import { PageSpinner } from '../../components/spinner';
import { StatusPage } from '../../components/status-page';
import { ApiError, SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import { RETRY_WORDS, canRetry } from '../../lib/retry-words';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { CommentsSection, useCommentMoments, type MomentLink } from '../comments';
import { toPlayerTrack, usePlayerActions, usePlayerPosition, useTrackSpeed, type TrackMark } from '../player';
import type { BarMark, BarsControl } from '../scores';
import { POST_MESSAGES, countCachedComment, postQueries, uncountCachedComment } from './api';
import { AddToPlaylist } from './components/add-to-playlist';
import { POST_COMMENTS_HEADING_ID, PostCard } from './components/post-card';
import { PostsTrackList } from './components/posts-track-list';
import { ScoreWithRecording, ScoresFollowing, useFollowingMarks } from './components/score-recording';
import { DownloadLink } from './components/download-link';
import { LyricsParts, lyricsSections } from './components/lyrics-parts';
import type { DisplayPost, LyricsContent, MusicXmlItem } from './types';
import styles from './post-page.module.css';

export const POST_PAGE_WORDS = {
  noPostId: 'No post ID provided',
  noLyrics: 'No lyrics available',
  tryAgain: 'Try Again',
  loadFailed: 'Failed to load post',
} as const;

/** Spec §8 Post page: 404 'Post not found', another status 'HTTP error! status: {code}'. */
export function postErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404) return POST_MESSAGES.notFound;
    if (error.sessionExpired) return SESSION_EXPIRED_MESSAGE;
    return POST_MESSAGES.httpError(error.status);
  }
  if (error instanceof Error && error.name !== 'NetworkError' && error.message) return error.message;
  return POST_PAGE_WORDS.loadFailed;
}

// ---------------------------------------------------------------------------------------------
// Lyrics

function LyricsView({ lyrics }: { lyrics: LyricsContent }) {
  const sections = lyricsSections(lyrics);
  return (
    <div className={styles.lyrics}>
      <span className={styles.lyricsMark} aria-hidden="true">
        <LyricsIcon size={22} />
      </span>
      <h2 className={styles.lyricsTitle}>{lyrics.title}</h2>
      <p className={styles.lyricsArtist}>{lyrics.artist}</p>
      {sections.length === 0 ? (
        <p className={styles.noLyrics}>{POST_PAGE_WORDS.noLyrics}</p>
      ) : (
        <LyricsParts sections={sections} className={styles.parts} headings />
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Scores

/** What the comments and a post's scores share: their marks, and each score's bars control. */
interface ScoreBars {
  marks: readonly (readonly BarMark[])[];
  register: (score: number, control: BarsControl | null) => void;
}

function ScoresView({
  postId,
  authorId,
  scores,
  bars,
}: {
  postId: string;
  authorId: string;
  scores: readonly MusicXmlItem[];
  bars?: ScoreBars;
}) {
  return (
    <div className={styles.scores}>
      {scores.map((score, index) => (
        <section key={`${score.downloadUrl}-${index}`} className={styles.scoreItem} aria-label={score.fileName}>
          <div className={styles.scoreHead}>
            <div className={styles.scoreText}>
              <h2 className={styles.scoreTitle}>{score.fileName}</h2>
              {score.composer ? <p className={styles.scoreComposer}>{score.composer}</p> : null}
            </div>
            <DownloadLink
              url={score.downloadUrl}
              title={score.fileName}
              className={`btn btn-secondary ${styles.download}`}
            />
          </div>
          <ScoreWithRecording
            postId={postId}
            authorId={authorId}
            index={index}
            score={score}
            barMarks={bars?.marks[index]}
            onBars={bars ? (control) => bars.register(index, control) : undefined}
          />
        </section>
      ))}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Comments on a moment of an audio post's track

const NO_MARKS: readonly (readonly TrackMark[])[] = [];

/**
 * What an audio post's comments know of the player (where it is in the post's tracks, how to play
 * a moment), and its timed comments as marks along each track; nothing for other posts.
 */
function useTrackMoments(post: DisplayPost): { link: MomentLink | undefined; marks: readonly (readonly TrackMark[])[] } {
  const audio = post.type === 'audio' ? post.content : null;
  const moments = useCommentMoments(post.id, audio !== null);
  const position = usePlayerPosition();
  const { play } = usePlayerActions();
  const link = useMemo((): MomentLink | undefined => {
    if (!audio) return undefined;
    const tracks = audio.map((item, i) => toPlayerTrack(post.id, i, item));
    return {
      current: () => {
        const now = position();
        if (!now.track || now.track.postId !== post.id || !audio[now.track.index]) return null;
        return { track: now.track.index, ms: Math.max(0, Math.floor(now.seconds * 1000)) };
      },
      play: (moment) => {
        const track = tracks[moment.track];
        if (track && moment.ms !== undefined) play(track, moment.ms / 1000, tracks);
      },
      trackTitle: (track) => (audio.length > 1 ? (audio[track]?.title ?? null) : null),
    };
  }, [audio, post.id, position, play]);
  const marks = useMemo(() => {
    if (!audio || moments.length === 0) return NO_MARKS;
    return audio.map((_, i) =>
      moments
        .filter((c) => c.moment?.track === i)
        .map(
          (c): TrackMark => ({
            id: c.id,
            seconds: (c.moment?.ms ?? 0) / 1000,
            name: c.authorName || c.authorLogin,
            avatarUrl: c.authorAvatarUrl,
            text: c.content,
          }),
        ),
    );
  }, [audio, moments]);
  return { link, marks };
}

/**
 * What a sheet-music post's comments know of its scores (issue 35): the bars one is at (looped,
 * or under the cursor) to put a comment on, how to play a comment's bars, and the comments on
 * bars as marks over each score; nothing for other posts.
 */
function useScoreBars(post: DisplayPost): { link: MomentLink | undefined; bars: ScoreBars | undefined } {
  const scores = post.type === 'musicxml' ? post.content : null;
  const moments = useCommentMoments(post.id, scores !== null);
  const controls = useRef(new Map<number, BarsControl>());
  const link = useMemo((): MomentLink | undefined => {
    if (!scores) return undefined;
    return {
      kind: 'bars',
      current: () => {
        for (const [score, control] of controls.current) {
          const at = control.current();
          if (at) return { track: score, bars: at };
        }
        return null;
      },
      play: (moment) => {
        if (moment.bars) controls.current.get(moment.track)?.play(moment.bars);
      },
      trackTitle: (score) => (scores.length > 1 ? (scores[score]?.fileName ?? null) : null),
    };
  }, [scores]);
  const register = useCallback((score: number, control: BarsControl | null) => {
    if (control) controls.current.set(score, control);
    else controls.current.delete(score);
  }, []);
  const bars = useMemo((): ScoreBars | undefined => {
    if (!scores) return undefined;
    const marks = scores.map((_, i) =>
      moments.flatMap((c): BarMark[] =>
        c.moment?.bars && c.moment.track === i
          ? [{ id: c.id, from: c.moment.bars.from, to: c.moment.bars.to, label: barMarkLabel(c.authorName || c.authorLogin, c.moment.bars, c.content) }]
          : [],
      ),
    );
    return { marks, register };
  }, [scores, moments, register]);
  return { link, bars };
}

/** How a mark over the bars names its comment: who, where, what. */
function barMarkLabel(name: string, bars: { from: number; to: number }, text: string): string {
  const where = bars.to > bars.from ? `bars ${bars.from}–${bars.to}` : `bar ${bars.from}`;
  return `${name} on ${where}: ${text}`;
}

export const SPEED_WORDS = { label: 'Speed', hint: 'Slower or faster, in the same key' } as const;

/**
 * Practising along a recording (issue 35): this post's tracks play at the speed chosen here,
 * 40 to 150 %, their pitch kept (the browser stretches time). Another track starts at its own.
 */
function PracticeSpeed({ postId }: { postId: string }) {
  const id = useId();
  const [percent, setPercent] = useTrackSpeed(postId);
  return (
    <div className={styles.speed}>
      <label htmlFor={id}>{SPEED_WORDS.label}</label>
      <input
        id={id}
        type="range"
        min={40}
        max={150}
        step={5}
        value={percent}
        aria-valuetext={`${percent}%`}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setPercent(Number(e.target.value))}
      />
      <output htmlFor={id}>{percent}%</output>
      <span id={`${id}-hint`} className={styles.speedHint}>
        {SPEED_WORDS.hint}
      </span>
    </div>
  );
}

/** The post by type, then its comments (on an audio post, comments on a moment of its tracks). */
function PostWithComments({ post, onDeleted }: { post: DisplayPost; onDeleted: () => void }) {
  const { link: trackLink, marks: ownMarks } = useTrackMoments(post);
  // A recording's page also marks the comments on bars of the score that follows it.
  const following = useFollowingMarks(post);
  const marks = useMemo(
    () => (following.length === 0 ? ownMarks : following.map((extra, i) => [...(ownMarks[i] ?? []), ...extra])),
    [ownMarks, following],
  );
  const { link: barsLink, bars } = useScoreBars(post);
  const link = trackLink ?? barsLink;
  return (
    <>
      <PostsTrackList posts={[post]}>
        <PostCard post={post} variant="detail" first fullView={fullView(post, bars)} onDeleted={onDeleted} trackMarks={marks} />
      </PostsTrackList>
      {post.type === 'audio' ? <PracticeSpeed postId={post.id} /> : null}
      {post.type === 'audio' ? <ScoresFollowing post={post} /> : null}
      <AddToPlaylist post={post} />
      <CommentsSection
        postId={post.id}
        count={post.comments_count}
        headingId={POST_COMMENTS_HEADING_ID}
        postAuthorId={post.userId}
        onCommentAdded={countCachedComment}
        onCommentRemoved={uncountCachedComment}
        moments={link}
      />
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The page

/** Lyrics and scores have a body of their own here, in full; other posts show as their card. */
function fullView(post: DisplayPost, bars?: ScoreBars): ReactNode {
  if (post.type === 'lyrics') return <LyricsView lyrics={post.content} />;
  if (post.type === 'musicxml') return <ScoresView postId={post.id} authorId={post.userId} scores={post.content} bars={bars} />;
  return undefined;
}

/**
 * One post with its comments (spec §2 Post page, route /post/{postId}): a Back button, the post
 * by type (lyrics in full, scores drawn, other kinds as their card), then the comments.
 */
export function PostPage() {
  const { postId: rawId } = useParams();
  const postId = (rawId ?? '').trim();
  const viewer = useViewer();
  const navigate = useNavigate();
  const post = useQuery({
    ...postQueries.detail(postId, viewer?.id ?? null),
    // Ask once, as whoever is signed in (user_liked is theirs).
    enabled: postId !== '' && viewer !== undefined,
  });
  const data = post.data;
  const notFound = post.isError && post.error instanceof ApiError && post.error.status === 404;
  usePageTitle(
    data
      ? data.type === 'lyrics'
        ? `${data.content.title} · ${data.content.artist}`
        : `Post by ${data.displayName || data.username}`
      : notFound
        ? POST_MESSAGES.notFound
        : 'Post',
  );
  const { pathname } = useLocation();
  if (notFound) {
    return (
      <StatusPage
        code="404"
        title={POST_MESSAGES.notFound}
        text="There is no post at this address: its author may have deleted it, or the link may be mistyped."
        lookedFor={pathname}
        search="music"
      />
    );
  }

  let body;
  if (!postId) {
    body = <Alert tone="error">{POST_PAGE_WORDS.noPostId}</Alert>;
  } else if (post.isPending) {
    body = <PageSpinner label="Loading post" />;
  } else if (post.isError) {
    const retry = canRetry(post.error);
    body = (
      <Alert tone="error">
        <p>{postErrorMessage(post.error)}</p>
        {retry ? (
          <>
            <p>{RETRY_WORDS}</p>
            <button
              type="button"
              className={`btn btn-secondary ${styles.retry}`}
              onClick={() => void post.refetch()}
              disabled={post.isFetching}
            >
              {POST_PAGE_WORDS.tryAgain}
            </button>
          </>
        ) : null}
      </Alert>
    );
  } else {
    body = <PostWithComments post={post.data} onDeleted={() => void navigate('/home', { replace: true })} />;
  }

  return (
    <div className={styles.page}>
      <div className={styles.topBar}>
        <BackButton />
        <h1 className="visually-hidden">Post</h1>
      </div>
      {body}
    </div>
  );
}
