DROP TABLE backfills;
