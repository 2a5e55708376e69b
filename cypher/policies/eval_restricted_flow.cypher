// restricted_flow: governed assets that flow into an asset matching `$to` within
// `max_depth` hops, each with a shortest path to the nearest such asset. One
// pruning breadth-first walk per governed asset (cost follows nodes reached,
// never paths); the path is found afterwards between two known ends.
MATCH (s:Asset)
WHERE NOT coalesce(s.placeholder, false)
  AND ($selector.type IS NULL OR s.type IN $selector.type)
  AND ($selector.platform IS NULL OR s.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(s.tags, []))
  AND ($selector.id_prefix IS NULL OR s.id STARTS WITH $selector.id_prefix)
MATCH p = (s)-[:LINEAGE*1..{{max_depth}}]->(t:Asset)
WHERE t <> s
  AND ($to.type IS NULL OR t.type IN $to.type)
  AND ($to.platform IS NULL OR t.platform IN $to.platform)
  AND all(tag IN $to.tags WHERE tag IN coalesce(t.tags, []))
  AND ($to.id_prefix IS NULL OR t.id STARTS WITH $to.id_prefix)
WITH s, t, min(length(p)) AS distance
ORDER BY distance, t.id
WITH s, head(collect(t)) AS target, min(distance) AS distance, count(t) AS targets
MATCH path = shortestPath((s)-[:LINEAGE*1..{{max_depth}}]->(target))
RETURN s.id AS asset_id,
       'flows into ' + target.id + ' within ' + toString(distance) + ' hop(s)'
         + CASE WHEN targets > 1 THEN ' (and ' + toString(targets - 1) + ' more restricted assets)'
                ELSE '' END AS reason,
       [n IN nodes(path) | n.id] AS path
ORDER BY asset_id
