// Where a tag_propagation violation can begin: assets with the tag that have a
// child without it (the last tagged asset on any offending path is one of these).
MATCH (t:Asset)-[:LINEAGE]->(u:Asset)
WHERE $tag IN coalesce(t.tags, []) AND NOT $tag IN coalesce(u.tags, [])
RETURN DISTINCT t.id AS id
