// Set which mapping kinds stop $tag (the tag's lock node keeps its rule, so the lock a
// recomputation takes also reads the rule, in one statement: columns.lock_tag).
// `changed`: whether the rule differs from what held before (the default when unset).
MERGE (l:ColumnTagLock {tag: $tag})
  ON MATCH SET l._lock = true
REMOVE l._lock
WITH l, coalesce(l.stops, $default) AS before
SET l.stops = $stops, l.updated_at = $now
RETURN before <> $stops AS changed
