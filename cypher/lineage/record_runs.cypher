// The latest state of each OpenLineage run, keyed by runId. A run moves only to an
// event with a greater order key (eventTime, then state rank), so events arriving
// late or twice converge. The lock is taken before the key is read.
UNWIND $runs AS run
MERGE (r:OpenLineageRun {run_id: run.run_id})
  ON MATCH SET r._lock = true
REMOVE r._lock
WITH r, run
WHERE r.order_key IS NULL OR run.order_key > r.order_key
SET r.state = run.state,
    r.event_time = run.event_time,
    r.order_key = run.order_key,
    r.job_namespace = run.job_namespace,
    r.job_name = run.job_name
RETURN count(r) AS advanced
