// The purge of expired idempotency records scans by expiry.
CREATE INDEX idempotency_expires_at IF NOT EXISTS FOR (r:IdempotencyRecord) ON (r.expires_at)
