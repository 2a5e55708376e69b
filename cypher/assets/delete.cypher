// Delete an asset, every relationship it has (its lineage edges), and the former
// ids that named it.
MATCH (a:Asset {id: $id})
CALL (a) {
  MATCH (al:AssetAlias)-[:ALIAS_OF]->(a)
  DETACH DELETE al
}
DETACH DELETE a
RETURN count(*) AS deleted
