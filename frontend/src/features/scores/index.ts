/**
 * Sheet music (MusicXML posts, spec §2 Post page): the public surface of the scores feature.
 * `ScoreView` fetches OpenSheetMusicDisplay only when a score is shown, so importing this module
 * costs a page nothing more than the component itself. `readScoreFacts` reads a score file's
 * title and composer for the add-post form.
 */
export { ScoreView, SCORE_WORDS, type BarMark, type BarsControl, type TapAlong } from './score-view';
export type { FollowedRecording } from './use-score-playback';
export type { SyncPoint } from './recording/sync-map';
export { useBarTimes } from './recording/use-bar-times';
export { readScoreFacts, type ScoreFacts } from './score-facts';
