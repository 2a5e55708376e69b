// Sessions past their absolute or idle expiry, removed by housekeeping.
MATCH (s:Session)
WHERE s.expires_at <= $now OR s.last_seen_at <= $idle_before
WITH s LIMIT 10000
DELETE s
RETURN count(*) AS removed
