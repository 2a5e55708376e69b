// Record that the data migration $name ran to its end; a second mark keeps the first.
MERGE (m:Migration {name: $name})
  ON CREATE SET m.done_at = $now
RETURN m.done_at AS done_at
