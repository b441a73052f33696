DELETE FROM jobs WHERE kind IN ('tracks.old', 'track.renditions');
ALTER TABLE post_audio DROP COLUMN aac_key;
ALTER TABLE post_audio DROP COLUMN opus_key;
ALTER TABLE posts DROP COLUMN payload_rev;
