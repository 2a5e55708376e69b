// The asset a merge goes into, made as a bare placeholder when it does not exist
// yet (the dbt upload that claims the dataset writes its fields, and its domain,
// right after).
MERGE (a:Asset {id: $id})
  ON CREATE SET a.name = $id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now
RETURN a.id AS id
