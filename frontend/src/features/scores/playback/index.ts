/**
 * Hearing a score (issue 20): its own chunk, beside OpenSheetMusicDisplay's, loaded once a score
 * is drawn (in idle time, to show its length: issue 34) or by the first Play.
 */
export { ScorePlayer, TEMPO_RANGE, type PartControl, type SamplesState, type SoundChoice } from './score-player';
export { measureAt, readTimeline, type Timeline } from './timeline';
export { cursorAt, measureAtPoint, readLayout, type ScoreLayout } from './layout';
export { secondsAt } from './tempo-map';
