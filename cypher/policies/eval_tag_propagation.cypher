// tag_propagation: governed assets without `$tag` that lie within `max_depth` hops
// downstream of an asset with it, each with a shortest path from the nearest one.
// Only tagged assets with an untagged child can start such a path's last tagged
// stretch, so the walks start there; each walk is the pruning breadth-first expand
// of the lineage reads (cost follows nodes reached, never paths), and the path is
// found afterwards between two known ends.
MATCH (t:Asset)-[:LINEAGE]->(u:Asset)
WHERE $tag IN coalesce(t.tags, []) AND NOT $tag IN coalesce(u.tags, [])
WITH DISTINCT t
MATCH p = (t)-[:LINEAGE*1..{{max_depth}}]->(a:Asset)
WHERE NOT $tag IN coalesce(a.tags, [])
  AND NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
WITH a, t, min(length(p)) AS distance
ORDER BY distance, t.id
WITH a, head(collect(t)) AS source, min(distance) AS distance
MATCH path = shortestPath((source)-[:LINEAGE*1..{{max_depth}}]->(a))
RETURN a.id AS asset_id,
       'lacks tag ' + $tag + ' carried by ' + source.id + ', ' + toString(distance)
         + ' hop(s) upstream' AS reason,
       [n IN nodes(path) | n.id] AS path
ORDER BY asset_id
