// Events after a sequence number, oldest first, optionally filtered by exact types
// ($view.types) and type prefixes ($view.prefixes: `asset.*` arrives as 'asset.'; with
// neither, $view.any_type); types under a $view.hidden prefix (the audit trail, for a
// reader below admin) are never returned, and types under a $view.owned prefix
// (`token.*`, for a reader below admin) only when the event's owner is $view.reader (an
// event written before owners were kept has none). An event placed in private domains
// (`hides_in`) is returned only when the reader may read every one of them
// ($view.readable; null for a global admin, who reads all). The filter is one map,
// $view, so that one plan serves every reader: as separate parameters, empty lists,
// filled ones and nulls made a plan per combination.
MATCH (e:Event)
WHERE e.seq > $after
  AND ($view.any_type OR e.type IN $view.types OR any(prefix IN $view.prefixes WHERE e.type STARTS WITH prefix))
  AND none(prefix IN $view.hidden WHERE e.type STARTS WITH prefix)
  AND (none(prefix IN $view.owned WHERE e.type STARTS WITH prefix) OR e.owner = $view.reader)
  AND ($view.readable IS NULL OR all(d IN coalesce(e.hides_in, []) WHERE d IN $view.readable))
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity, .owner,
          .hides_in, .hidden_ids, .hidden_in, .hidden_owners, .hidden_owners_in} AS event
ORDER BY e.seq
LIMIT $limit
