// What lies downstream of each asset in `$asset_ids`: how many assets, the first
// 100 ids nearest first, and their owners. Each walk is the pruning breadth-first
// expand the lineage reads use, so cost follows the nodes reached, not the paths.
// `owner_places` pairs each owner with the private domain of an asset they own there
// (null outside private domains): the alert hides owners of hidden assets only.
UNWIND $asset_ids AS asset_id
MATCH (root:Asset {id: asset_id})
OPTIONAL MATCH p = (root)-[:LINEAGE*1..{{depth}}]->(n:Asset)
WHERE n <> root
WITH asset_id, n, min(length(p)) AS distance
ORDER BY distance, n.id
WITH asset_id, collect(n) AS reached
RETURN asset_id,
       size(reached) AS downstream_count,
       [x IN reached[..100] | x.id] AS downstream_ids,
       COLLECT {
         UNWIND reached AS x
         UNWIND coalesce(x.owners, []) AS owner
         RETURN DISTINCT owner ORDER BY owner
       } AS owners,
       COLLECT {
         UNWIND reached AS x
         UNWIND coalesce(x.owners, []) AS owner
         RETURN DISTINCT [owner, CASE WHEN x.domain_private THEN x.domain END] AS place
       } AS owner_places
