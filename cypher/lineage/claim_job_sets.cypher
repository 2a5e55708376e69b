// The newest COMPLETE run whose lineage stands as each OpenLineage job's edge set:
// one node per job, keyed by its origin, holding that run's order key (eventTime,
// then state rank). A COMPLETE moves it only forward, so runs arriving late or twice
// converge; `previous` tells the caller whether this request's edges replace the
// job's set (a newer key), join it (the same key) or came late (an older key).
// Jobs come sorted, and each lock is taken before its key is read.
UNWIND $jobs AS job
MERGE (j:OpenLineageJob {origin: job.origin})
  ON MATCH SET j._lock = true
REMOVE j._lock
WITH j, job, j.lineage_key AS previous
SET j.lineage_key = CASE
  WHEN previous IS NULL OR job.key > previous THEN job.key ELSE previous END
RETURN job.origin AS origin, previous
