/**
 * The player's public surface (docs/frontend.md, "Boundaries"): other features render a post's
 * tracks (`AudioItem`) with AudioTrack and may read what is playing; the shell mounts the provider. The
 * now-playing bar is not here: the shell loads it on demand, the first time something plays.
 */
export { AudioTrack, toPlayerTrack } from './audio-track';
export type { TrackMark } from './track-marks';
export { TrackList } from './track-list';
export { Waveform } from './waveform';
export { useTrackSpeed } from './use-track-speed';
export { toLoudness, type Loudness } from './loudness';
export { toStreams, type Stream } from './streams';
export { PlayerProvider } from './player-context';
export type { MediaEngine, MediaEvent } from './media-engine';
export { PLAY_FAILED, type AudioItem, type PlayerActions, type PlayerState, type PlayerTrack } from './player-store';
export {
  useCountedPlays,
  useKeptEngines,
  useNowPlayingShown,
  usePlayer,
  usePlayerActions,
  usePlayerPosition,
  usePlayerSelector,
  usePlayerTime,
} from './use-player';
