// Make a placeholder asset for every id that names none; count those made. The
// `_new` marker is set only on creation and removed in the same statement, so the
// count is exact even with concurrent writers (their creations are invisible here).
UNWIND $ids AS id
MERGE (a:Asset {id: id})
  ON CREATE SET a.name = id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now,
                a._new = true
WITH a
WHERE a._new = true
REMOVE a._new
RETURN count(a) AS created
