// Events after a sequence number, oldest first, optionally filtered by exact types
// and type prefixes (`asset.*` arrives as the prefix 'asset.'); types under a
// `$hidden` prefix (the audit trail, for a reader below admin) are never returned, and
// types under an `$owned` prefix (`token.*`, for a reader below admin) only when the
// event's owner is `$reader` (an event written before owners were kept has none).
// An event placed in private domains (`hides_in`) is returned only when the reader may
// read every one of them (`$readable`; null for a global admin, who reads all).
MATCH (e:Event)
WHERE e.seq > $after
  AND ($any_type OR e.type IN $types OR any(prefix IN $prefixes WHERE e.type STARTS WITH prefix))
  AND none(prefix IN $hidden WHERE e.type STARTS WITH prefix)
  AND (none(prefix IN $owned WHERE e.type STARTS WITH prefix) OR e.owner = $reader)
  AND ($readable IS NULL OR all(d IN coalesce(e.hides_in, []) WHERE d IN $readable))
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity, .owner,
          .hides_in, .hidden_ids, .hidden_in, .hidden_owners, .hidden_owners_in} AS event
ORDER BY e.seq
LIMIT $limit
