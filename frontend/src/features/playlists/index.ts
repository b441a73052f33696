/**
 * The playlists feature's public surface (issue 31): the router loads the playlist page on its
 * own; profiles show a person's playlists with `PlaylistsList`. The calls live in
 * lib/playlists.ts, which the posts feature uses too (adding a track from its page).
 */
export { PlaylistsList } from './components/playlists-list';
