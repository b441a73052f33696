-- Each track's loudness (issue 32), measured from the file in the decode pass that finds its
-- duration and waveform: integrated loudness in LUFS and the highest true peak in dBTP (EBU
-- R128). The player evens tracks out with them; NULL when a track is silence, could not be
-- measured, or was uploaded before they were measured.
ALTER TABLE post_audio ADD COLUMN loudness_lufs DOUBLE;
ALTER TABLE post_audio ADD COLUMN true_peak_dbtp DOUBLE;
