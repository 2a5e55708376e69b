// The mapping kinds that stop $tag: its own rule, else none (the caller's default).
OPTIONAL MATCH (l:ColumnTagLock {tag: $tag})
RETURN l.stops AS stops, l.updated_at AS updated_at
