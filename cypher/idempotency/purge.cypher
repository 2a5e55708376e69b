// Remove expired idempotency records, a batch at a time.
MATCH (r:IdempotencyRecord)
WHERE r.expires_at < $now
WITH r LIMIT $batch
DELETE r
RETURN count(*) AS removed
