// The newest events, newest first (the seq index serves the order and the limit);
// types under a `$hidden` prefix (the audit trail, for a non-admin) are left out, and
// types under an `$owned` prefix (`token.*`, for a non-admin) unless `$reader` owns them,
// and events placed in a private domain the reader may not read (`$readable`; null: all).
MATCH (e:Event)
WHERE e.seq IS NOT NULL
  AND none(prefix IN $hidden WHERE e.type STARTS WITH prefix)
  AND (none(prefix IN $owned WHERE e.type STARTS WITH prefix) OR e.owner = $reader)
  AND ($readable IS NULL OR all(d IN coalesce(e.hides_in, []) WHERE d IN $readable))
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity, .owner,
          .hides_in, .hidden_ids, .hidden_in, .hidden_owners, .hidden_owners_in} AS event
ORDER BY e.seq DESC
LIMIT $limit
