// Record activity at most once per interval, so most page views stay reads.
MATCH (s:Session {hash: $hash})
WHERE s.last_seen_at < $stale_before
SET s.last_seen_at = $now
