DROP TABLE playlist_items;
DROP TABLE playlists;
