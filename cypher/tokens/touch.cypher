// Record use, at most once per interval, so authentication stays a read.
MATCH (t:ApiToken {id: $id})
WHERE t.last_used_at IS NULL OR t.last_used_at < $stale_before
SET t.last_used_at = $now
