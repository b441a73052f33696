ALTER TABLE post_audio DROP COLUMN true_peak_dbtp;
ALTER TABLE post_audio DROP COLUMN loudness_lufs;
