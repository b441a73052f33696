ALTER TABLE posts RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
