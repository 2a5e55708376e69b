// Make sure every id names an asset: a placeholder for each id that names none,
// counted in `created`. A former id (an alias) must not become an asset of its own:
// it is answered with the asset it names now ([alias, id] pairs in `aliased`, for the
// caller to rewrite its rows). An id that names an asset is never an alias, so only
// the ids just made are looked up as aliases (one index seek each), and one that is
// an alias is removed again: the everyday batch pays no more than before. The `_new`
// marker is set only on creation and removed in the same statement, so the count is
// exact even with concurrent writers (their creations are invisible here). A new
// placeholder gets the domain its id places it in (`$domains`: id -> domain).
UNWIND $ids AS id
MERGE (a:Asset {id: id})
  ON CREATE SET a.name = id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now,
                a.domain = $domains[id],
                a.domain_private = CASE WHEN $domains[id] IN $private THEN true END,
                a._new = true
WITH a, id
WHERE a._new = true
REMOVE a._new
WITH a, id
OPTIONAL MATCH (:AssetAlias {id: id})-[:ALIAS_OF]->(current:Asset)
FOREACH (_ IN CASE WHEN current IS NULL THEN [] ELSE [1] END | DETACH DELETE a)
RETURN count(CASE WHEN current IS NULL THEN 1 END) AS created,
       collect(CASE WHEN current IS NOT NULL THEN [id, current.id] END) AS aliased
