import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/http';
import type { PlayerTrack, TrackMark } from '../../player';
import { useCommentMoments } from '../../comments';
import { ScoreView, useBarTimes, type BarMark, type BarsControl, type SyncPoint } from '../../scores';
import { postQueries, useViewerId } from '../api';
import { followedOf, linkedTrack, recordingQueries, useLinkRecording, useUnlinkRecording } from '../recordings-api';
import { toDisplayPost } from '../transform';
import type { DisplayPost, MusicXmlItem } from '../types';
import styles from './score-recording.module.css';

export const RECORDING_WORDS = {
  link: 'Link a recording',
  edit: 'Edit sync',
  remove: 'Remove recording',
  follows: 'Follows',
  by: 'by',
  choose: 'Choose a recording',
  yours: 'One of your tracks',
  none: 'None of your recent posts has a track.',
  pick: 'Choose…',
  paste: 'Or paste the link of any track you can hear',
  use: 'Use this track',
  cancel: 'Cancel',
  notAudio: 'That link is not an audio post.',
  notFound: 'No track was found at that link.',
  failed: 'The sync could not be saved.',
  removeFailed: 'The recording could not be removed.',
  score: 'Score',
  scoreOf: (title: string) => `Score: ${title}`,
} as const;

/** A post's id from a link to it (`…/post/123`) or the id itself; null when it is neither. */
export function postIdOf(typed: string): string | null {
  const text = typed.trim();
  const linked = /\/post\/(\d+)/.exec(text);
  if (linked?.[1]) return linked[1];
  return /^\d+$/.test(text) ? text : null;
}

/** What went wrong, in the server's words when it gave them. */
function problemOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/**
 * Choosing the recording a score follows: one of the author's own recent tracks, or any track
 * they can hear by its link.
 */
function RecordingPicker({ viewerId, onChoose, onCancel }: { viewerId: string; onChoose: (t: PlayerTrack) => void; onCancel: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const own = useInfiniteQuery(postQueries.byUser(viewerId, viewerId));
  const tracks = useMemo(
    () =>
      (own.data?.pages ?? [])
        .flatMap((page) => page.posts)
        .flatMap((post) => (post.type === 'audio' ? post.content.map((_, i) => linkedTrack(post, i)) : []))
        .filter((t): t is PlayerTrack => t !== null),
    [own.data],
  );
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const takePasted = async () => {
    const postId = postIdOf(typed);
    if (!postId) {
      setProblem(RECORDING_WORDS.notFound);
      return;
    }
    try {
      const post: DisplayPost = await queryClient.fetchQuery(postQueries.detail(postId, viewerId));
      const track = linkedTrack(post, 0);
      if (!track) setProblem(RECORDING_WORDS.notAudio);
      else onChoose(track);
    } catch {
      setProblem(RECORDING_WORDS.notFound);
    }
  };
  return (
    <div className={styles.picker} role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className={styles.heading}>
        {RECORDING_WORDS.choose}
      </h3>
      <label htmlFor={`${id}-own`}>{RECORDING_WORDS.yours}</label>
      {tracks.length > 0 ? (
        <select
          id={`${id}-own`}
          defaultValue=""
          onChange={(e) => {
            const chosen = tracks[Number(e.target.value)];
            if (chosen) onChoose(chosen);
          }}
        >
          <option value="" disabled>
            {RECORDING_WORDS.pick}
          </option>
          {tracks.map((t, i) => (
            <option key={`${t.postId}-${t.index}`} value={i}>
              {t.title} — {t.artist}
            </option>
          ))}
        </select>
      ) : (
        <p id={`${id}-own`} className={styles.muted}>
          {own.isPending ? '…' : RECORDING_WORDS.none}
        </p>
      )}
      <form
        className={styles.paste}
        onSubmit={(e) => {
          e.preventDefault();
          void takePasted();
        }}
      >
        <label htmlFor={`${id}-paste`}>{RECORDING_WORDS.paste}</label>
        <input
          id={`${id}-paste`}
          type="text"
          inputMode="url"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <button type="submit" className="btn btn-secondary">
          {RECORDING_WORDS.use}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {RECORDING_WORDS.cancel}
        </button>
      </form>
      {problem ? (
        <p id={`${id}-problem`} role="alert" className={styles.problem}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One score of a sheet-music post with the recording it follows (issue 35): anyone who may hear
 * the recording gets "Play with recording"; its author links one, taps its sync map, corrects
 * or removes it.
 */
export function ScoreWithRecording({
  postId,
  authorId,
  index,
  score,
  barMarks,
  onBars,
}: {
  postId: string;
  authorId: string;
  index: number;
  score: MusicXmlItem;
  barMarks?: readonly BarMark[];
  onBars?: (control: BarsControl | null) => void;
}) {
  const viewerId = useViewerId();
  const links = useQuery(recordingQueries.ofPost(postId, viewerId));
  const link = links.data?.find((l) => l.score === index);
  const followed = useMemo(() => (link ? followedOf(link) : null), [link]);
  const mine = viewerId !== null && viewerId !== undefined && viewerId === authorId;
  const [picking, setPicking] = useState(false);
  const [tapping, setTapping] = useState<{ track: PlayerTrack; initial: readonly SyncPoint[] | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useLinkRecording(postId);
  const unlink = useUnlinkRecording(postId);

  const onSave = async (points: SyncPoint[]) => {
    if (!tapping) return;
    setProblem(null);
    try {
      await save.mutateAsync({ score: index, recording_id: tapping.track.postId, track: tapping.track.index, points });
      setTapping(null);
    } catch (error) {
      setProblem(problemOf(error, RECORDING_WORDS.failed));
    }
  };
  const remove = async () => {
    setProblem(null);
    try {
      await unlink.mutateAsync(index);
    } catch (error) {
      setProblem(problemOf(error, RECORDING_WORDS.removeFailed));
    }
  };

  return (
    <>
      {followed || mine ? (
        <div className={styles.bar} data-score-recording={followed ? followed.post.id : 'none'}>
          {followed ? (
            <span className={styles.follows}>
              {RECORDING_WORDS.follows}{' '}
              <Link to={`/post/${followed.post.id}`}>{followed.recording.track.title}</Link> {RECORDING_WORDS.by}{' '}
              {followed.recording.track.artist}
            </span>
          ) : null}
          {mine && !tapping && !picking ? (
            <span className={styles.actions}>
              {followed ? (
                <>
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => setTapping({ track: followed.recording.track, initial: followed.recording.points })}
                  >
                    {RECORDING_WORDS.edit}
                  </button>
                  <button type="button" className="btn btn-secondary" disabled={unlink.isPending} onClick={() => void remove()}>
                    {RECORDING_WORDS.remove}
                  </button>
                </>
              ) : (
                <button type="button" className="btn btn-secondary" onClick={() => setPicking(true)}>
                  {RECORDING_WORDS.link}
                </button>
              )}
            </span>
          ) : null}
        </div>
      ) : null}
      {problem && !tapping ? (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      ) : null}
      {picking && viewerId ? (
        <RecordingPicker
          viewerId={viewerId}
          onCancel={() => setPicking(false)}
          onChoose={(track) => {
            setPicking(false);
            setTapping({ track, initial: null });
          }}
        />
      ) : null}
      <ScoreView
        url={score.downloadUrl}
        title={score.fileName}
        player={{ postId, index, composer: score.composer }}
        recording={followed?.recording ?? null}
        tapping={tapping ? { ...tapping, onSave, onCancel: () => setTapping(null), problem } : null}
        barMarks={barMarks}
        onBars={onBars}
      />
    </>
  );
}

/**
 * On a recording's page, the comments on bars of the score that follows it (the newest link's),
 * as marks along the track at the moments the sync map puts those bars: each track's marks.
 */
export function useFollowingMarks(post: DisplayPost): readonly (readonly TrackMark[])[] {
  const viewerId = useViewerId();
  const audio = post.type === 'audio';
  const links = useQuery({ ...recordingQueries.following(post.id, viewerId), enabled: audio && viewerId !== undefined });
  const link = links.data?.[0];
  const scorePost = useMemo(() => (link ? toDisplayPost(link.post) : null), [link]);
  const score = scorePost?.type === 'musicxml' && link ? scorePost.content[link.score] : undefined;
  const comments = useCommentMoments(link?.post_id ?? '', link !== undefined);
  const timeOf = useBarTimes(score?.downloadUrl ?? null, link?.points ?? null);
  return useMemo(() => {
    if (!link || !timeOf || post.type !== 'audio') return NO_TRACK_MARKS;
    const marks = comments.flatMap((c): TrackMark[] => {
      const bars = c.moment?.bars;
      if (!bars || c.moment?.track !== link.score) return [];
      const seconds = timeOf(bars.from);
      if (seconds === null) return [];
      const where = bars.to > bars.from ? `bars ${bars.from}–${bars.to}` : `bar ${bars.from}`;
      return [{ id: `score-${c.id}`, seconds, name: c.authorName || c.authorLogin, avatarUrl: c.authorAvatarUrl, text: `${where}: ${c.content}` }];
    });
    return post.content.map((_, i) => (i === link.track ? marks : []));
  }, [link, timeOf, comments, post]);
}

const NO_TRACK_MARKS: readonly (readonly TrackMark[])[] = [];

/**
 * On a recording's page, the scores that follow it (issue 35): a "Score" button for each opens
 * it under the track, its cursor following the recording as it plays.
 */
export function ScoresFollowing({ post }: { post: DisplayPost }) {
  const viewerId = useViewerId();
  const audio = post.type === 'audio';
  const links = useQuery({ ...recordingQueries.following(post.id, viewerId), enabled: audio && viewerId !== undefined });
  const [open, setOpen] = useState<string | null>(null);
  const shown = useMemo(
    () =>
      (links.data ?? []).flatMap((link) => {
        const scorePost = toDisplayPost(link.post);
        const score = scorePost?.type === 'musicxml' ? scorePost.content[link.score] : undefined;
        const track = linkedTrack(post, link.track);
        if (!score || !track) return [];
        return [{ key: `${link.post_id}-${link.score}`, link, track, score }];
      }),
    [links.data, post],
  );
  if (shown.length === 0) return null;
  return (
    <div className={styles.following}>
      <div className={styles.actions}>
        {shown.map((s) => (
          <button
            key={s.key}
            type="button"
            className="btn btn-secondary"
            aria-expanded={open === s.key}
            onClick={() => setOpen((o) => (o === s.key ? null : s.key))}
          >
            {shown.length > 1 ? RECORDING_WORDS.scoreOf(s.score.fileName) : RECORDING_WORDS.score}
          </button>
        ))}
      </div>
      {shown.map((s) =>
        open === s.key ? (
          <ScoreView
            key={s.key}
            url={s.score.downloadUrl}
            title={s.score.fileName}
            player={{ postId: s.link.post_id, index: s.link.score, composer: s.score.composer }}
            recording={{ track: s.track, points: s.link.points }}
            followFirst
          />
        ) : null,
      )}
    </div>
  );
}
