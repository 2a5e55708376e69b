// Remove events older than the retention horizon, a batch at a time.
MATCH (e:Event)
WHERE e.occurred_at < $before
WITH e LIMIT $batch
DELETE e
RETURN count(*) AS removed
