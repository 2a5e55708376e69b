// Events after a sequence number, oldest first, optionally filtered by exact types
// and type prefixes (`asset.*` arrives as the prefix 'asset.').
MATCH (e:Event)
WHERE e.seq > $after
  AND ($any_type OR e.type IN $types OR any(prefix IN $prefixes WHERE e.type STARTS WITH prefix))
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity} AS event
ORDER BY e.seq
LIMIT $limit
