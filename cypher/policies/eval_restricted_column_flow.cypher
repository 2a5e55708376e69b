// restricted_column_flow: governed assets (placeholders never) with a column that
// inherits $tag along column lineage within $depth mappings. Inheritance stops at
// masking, aggregation and indirect mappings (columns.tag_region), so a column that
// holds it got the tagged values unmasked. One row per asset: its nearest such column
// (then by name), with the path from the tagged column as `asset#column` steps, read
// back along the column's one TAG_FLOWS chain for the tag, each step's asset apart
// (`path_assets`) and the step the reason names (`far_end`, last in the reason) so a
// reader's view can hide a step without reading the text.
MATCH (a:Asset)
WHERE NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
MATCH (a)-[:HAS_COLUMN]->(c:Column)<-[f:TAG_FLOWS {tag: $tag}]-(:Column)
WHERE f.distance <= $depth
WITH a, c, f
ORDER BY f.distance, c.name
WITH a, head(collect([c, f])) AS nearest
WITH a, nearest[0] AS c, nearest[1] AS f
MATCH p = (c)<-[rels:TAG_FLOWS*]-(s:Column {key: f.source})
WHERE all(r IN rels WHERE r.tag = $tag)
RETURN a.id AS asset_id,
       'column ' + c.name + ' receives ' + $tag + ' over ' + toString(f.distance) +
       ' mapping(s), none of them masking, from ' + s.asset + '#' + s.name AS reason,
       reverse([n IN nodes(p) | n.asset + '#' + n.name]) AS path,
       reverse([n IN nodes(p) | n.asset]) AS path_assets,
       s.asset + '#' + s.name AS far_end
ORDER BY asset_id
