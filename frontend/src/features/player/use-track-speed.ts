import { useCallback, useEffect, useRef, useState } from 'react';
import { usePlayerActions, usePlayerSelector } from './use-player';

/**
 * A speed control for one post's tracks (issue 35: practising along a recording), in percent:
 * while one of them plays it shows and sets the player's speed; before, it keeps what is chosen
 * and gives it once to the track when it starts (a new track starts at its own speed). Two
 * controls on one page (the track's and a score following it) therefore agree, never fight.
 */
export function useTrackSpeed(postId: string | null, index?: number): [number, (percent: number) => void] {
  const { setSpeed } = usePlayerActions();
  const current = usePlayerSelector((s) =>
    postId !== null && s.track?.postId === postId && (index === undefined || s.track.index === index) ? s.speed : null,
  );
  const [chosen, setChosen] = useState(100);
  const wanted = useRef<number | null>(null);
  useEffect(() => {
    const w = wanted.current;
    if (current === null || w === null) return;
    wanted.current = null;
    if (Math.round(current * 100) !== w) setSpeed(w / 100);
  }, [current, setSpeed]);
  const choose = useCallback(
    (percent: number) => {
      setChosen(percent);
      if (current !== null) setSpeed(percent / 100);
      else wanted.current = percent;
    },
    [current, setSpeed],
  );
  return [current !== null ? Math.round(current * 100) : chosen, choose];
}
