DROP TABLE comment_mentions;
DROP TABLE comments;
DROP TABLE likes;
DROP TABLE post_lyrics;
DROP TABLE post_scores;
DROP TABLE post_audio;
DROP TABLE post_media;
DROP TABLE posts;
