/**
 * Sheet music (MusicXML posts, spec §2 Post page): the public surface of the scores feature.
 * `ScoreView` fetches OpenSheetMusicDisplay only when a score is shown, so importing this module
 * costs a page nothing more than the component itself.
 */
export { ScoreView, SCORE_WORDS } from './score-view';
