-- 0006: a fold deletes every delta row at once; have autovacuum clear them
-- soon, or the next reads of the deltas wade through dead rows.
ALTER TABLE dashboard_count_deltas SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
