/**
 * How a comment's moment is said: 'at 1:23', with the track's title on a post of several
 * tracks ('at 1:23 in Harbour Lights').
 */
import { formatDuration } from '../../lib/format';
import type { CommentMoment } from './types';

export const MOMENT_WORDS = {
  add: 'Add the time',
  remove: (moment: string) => `Remove the time (${moment})`,
  playFirst: 'Play the track, then add the time you are at.',
  playFrom: (moment: string) => `Play from ${moment}`,
} as const;

/** The same, for comments on bars of a score (issue 35). */
export const BAR_WORDS = {
  add: 'Add the bars',
  remove: (bars: string) => `Remove the bars (${bars})`,
  playFirst: 'Play the score or loop some bars, then add them.',
  playFrom: (bars: string) => `Play ${bars}`,
} as const;

/**
 * 'at 1:23' (whole seconds, as the player shows elapsed time), or 'at 1:23 in Title'; 'bar 3' or
 * 'bars 9–16', or 'bars 9–16 in Title'.
 */
export function momentText(moment: CommentMoment, trackTitle: string | null): string {
  const at = moment.bars
    ? moment.bars.to > moment.bars.from
      ? `bars ${moment.bars.from}–${moment.bars.to}`
      : `bar ${moment.bars.from}`
    : `at ${formatDuration(moment.ms / 1000, Math.floor)}`;
  return trackTitle ? `${at} in ${trackTitle}` : at;
}
