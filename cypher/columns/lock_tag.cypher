// Take the tag's lock for the rest of the transaction, before its inheritance is read:
// recomputations of one tag serialise, so none rewrites a region from a stale reading.
// Answers the tag's rule: the mapping kinds that stop it ($default unless set).
MERGE (l:ColumnTagLock {tag: $tag})
  ON MATCH SET l._lock = true
REMOVE l._lock
RETURN coalesce(l.stops, $default) AS stops
