// Finish merging asset $from into $into (edges and columns moved already): its
// quality rules check $into, its former ids and its own id become aliases of
// $into, owners and tags are joined, a description or columns $into lacks are
// taken over, its OpenLineage schema record moves when $into has none, and the
// node goes. Returns $into as it is now.
MATCH (f:Asset {id: $from})
MATCH (i:Asset {id: $into})
CALL (f, i) {
  MATCH (r:QualityRule)-[c:CHECKS]->(f)
  CREATE (r)-[:CHECKS]->(i)
  SET r.asset_id = i.id
  DELETE c
  RETURN count(*) AS rules
}
CALL (f, i) {
  OPTIONAL MATCH (al:AssetAlias)-[r:ALIAS_OF]->(f)
  FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
    CREATE (al)-[:ALIAS_OF]->(i)
    DELETE r)
  RETURN collect(al.id) AS former
}
MERGE (own:AssetAlias {id: f.id})
CREATE (own)-[:ALIAS_OF]->(i)
WITH f, i, rules, [a IN [f.id] + former WHERE NOT a IN coalesce(i.aliases, [])] AS added
OPTIONAL MATCH (fs:DatasetSchema {asset: f.id})
OPTIONAL MATCH (is:DatasetSchema {asset: i.id})
FOREACH (_ IN CASE WHEN fs IS NOT NULL AND is IS NULL THEN [1] ELSE [] END |
  SET fs.asset = i.id)
FOREACH (_ IN CASE WHEN fs IS NOT NULL AND is IS NOT NULL THEN [1] ELSE [] END |
  DELETE fs)
SET i.aliases = coalesce(i.aliases, []) + added,
    i.owners = coalesce(i.owners, []) + [o IN coalesce(f.owners, []) WHERE NOT o IN coalesce(i.owners, [])],
    i.tags = coalesce(i.tags, []) + [t IN coalesce(f.tags, []) WHERE NOT t IN coalesce(i.tags, [])],
    i.description = coalesce(i.description, f.description),
    i.columns_json = coalesce(i.columns_json, f.columns_json)
DETACH DELETE f
RETURN i {.*} AS asset, rules
