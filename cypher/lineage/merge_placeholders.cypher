// Make sure every id names an asset, in one round trip: an id that is a former id
// (an alias) is answered with the asset it names now ([alias, id] pairs in
// `aliased`, for the caller to rewrite its rows); any other id that names no asset
// gets a placeholder, counted in `created`. The `_new` marker is set only on
// creation and removed in the same statement, so the count is exact even with
// concurrent writers (their creations are invisible here).
UNWIND $ids AS id
OPTIONAL MATCH (:AssetAlias {id: id})-[:ALIAS_OF]->(current:Asset)
WITH collect(CASE WHEN current IS NOT NULL THEN [id, current.id] END) AS aliased,
     collect(CASE WHEN current IS NULL THEN id END) AS plain
CALL (plain) {
  UNWIND plain AS id
  MERGE (a:Asset {id: id})
    ON CREATE SET a.name = id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                  a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now,
                  a._new = true
  WITH a
  WHERE a._new = true
  REMOVE a._new
  RETURN count(a) AS created
}
RETURN aliased, created
