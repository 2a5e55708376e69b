// Claim an Idempotency-Key for a request, or find the earlier request's record.
// The write lock (ON MATCH SET) orders concurrent repeats. An expired record, or a
// pending one whose holder died ($abandoned_before), is claimed afresh.
MERGE (r:IdempotencyRecord {scope_key: $scope_key})
  ON CREATE SET r.state = 'new'
  ON MATCH SET r._lock = true
REMOVE r._lock
WITH r, r.state = 'new'
        OR r.expires_at < $now
        OR (r.state = 'pending' AND r.created_at < $abandoned_before) AS fresh
FOREACH (_ IN CASE WHEN fresh THEN [1] ELSE [] END |
  SET r.state = 'pending', r.request_hash = $request_hash, r.created_at = $now,
      r.expires_at = $expires_at, r.status = null, r.body = null, r.headers_json = null)
RETURN fresh, r {.state, .request_hash, .status, .body, .headers_json} AS record
