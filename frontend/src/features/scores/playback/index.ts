/**
 * Hearing a score (issue 20): what the Play control of a drawn score loads the first time it is
 * pressed, and never before (it is its own chunk, beside OpenSheetMusicDisplay's).
 */
export { ScorePlayer, TEMPO_RANGE, type PartControl } from './score-player';
export { readTimeline, type Timeline } from './timeline';
export { cursorAt, measureAtPoint, readLayout, type ScoreLayout } from './layout';
