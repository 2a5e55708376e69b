// The newest events, newest first (the seq index serves the order and the limit);
// types under a `$hidden` prefix (the audit trail, for a non-admin) are left out.
MATCH (e:Event)
WHERE e.seq IS NOT NULL
  AND none(prefix IN $hidden WHERE e.type STARTS WITH prefix)
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity} AS event
ORDER BY e.seq DESC
LIMIT $limit
