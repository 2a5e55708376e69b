// The newest events, newest first (the seq index serves the order and the limit);
// types under a $view.hidden prefix (the audit trail, for a non-admin) are left out, and
// types under a $view.owned prefix (`token.*`, for a non-admin) unless $view.reader owns
// them, and events placed in a private domain the reader may not read ($view.readable;
// null: all). The reader's view is one map so that one plan serves every reader.
MATCH (e:Event)
WHERE e.seq IS NOT NULL
  AND none(prefix IN $view.hidden WHERE e.type STARTS WITH prefix)
  AND (none(prefix IN $view.owned WHERE e.type STARTS WITH prefix) OR e.owner = $view.reader)
  AND ($view.readable IS NULL OR all(d IN coalesce(e.hides_in, []) WHERE d IN $view.readable))
RETURN e {.id, .seq, .type, .occurred_at, .actor, .data, .alert, .severity, .owner,
          .hides_in, .hidden_ids, .hidden_in, .hidden_owners, .hidden_owners_in} AS event
ORDER BY e.seq DESC
LIMIT $limit
