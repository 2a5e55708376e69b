// The id of the asset that `$id` names now: the asset itself, or the asset it was
// merged into (its alias); `$id` itself when it names neither.
OPTIONAL MATCH (a:Asset {id: $id})
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(b:Asset)
RETURN coalesce(a.id, b.id, $id) AS id
