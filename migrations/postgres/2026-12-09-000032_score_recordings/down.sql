DROP TABLE score_recordings;
