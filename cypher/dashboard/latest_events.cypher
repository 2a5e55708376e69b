// The newest events, newest first (the seq index serves the order and the limit).
MATCH (e:Event)
WHERE e.seq IS NOT NULL
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity} AS event
ORDER BY e.seq DESC
LIMIT $limit
