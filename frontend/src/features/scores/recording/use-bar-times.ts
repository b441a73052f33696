import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { scoreQueries } from '../api';
import type { ScoreSource } from '../score-source';
import { loadPlayback, piecesOf } from '../use-score-playback';
import { anchorsOf, secondsAt, type SyncPoint } from './sync-map';

type Timeline = ReturnType<Awaited<ReturnType<typeof loadPlayback>>['readTimeline']>;

/**
 * When a recording reaches each written bar of the score it is followed by (issue 35): the
 * score's file read and its performance worked out in idle time (the player's own code), then
 * the sync map's time of each bar's first performance. Null until known, or without a score; a
 * bar the score or the map does not reach is null.
 */
export function useBarTimes(url: string | null, points: readonly SyncPoint[] | null): ((bar: number) => number | null) | null {
  const file = useQuery({ ...scoreQueries.file(url ?? ''), enabled: url !== null });
  const source = file.data ?? null;
  const [timeline, setTimeline] = useState<{ of: ScoreSource; value: Timeline } | null>(null);
  useEffect(() => {
    if (!source || timeline?.of === source) return;
    let live = true;
    (window.requestIdleCallback ?? setTimeout)(() => {
      loadPlayback().then(
        (mod) => live && setTimeline({ of: source, value: mod.readTimeline(piecesOf(source)) }),
        () => {}, // no marks; the page goes on without them
      );
    });
    return () => {
      live = false;
    };
  }, [source, timeline]);
  return useMemo(() => {
    if (!timeline || timeline.of !== source || !points) return null;
    const anchors = anchorsOf(timeline.value, points);
    return (bar: number) => {
      const first = timeline.value.measures.find((m) => m.written === bar - 1);
      return first ? secondsAt(anchors, first.start) : null;
    };
  }, [timeline, source, points]);
}
