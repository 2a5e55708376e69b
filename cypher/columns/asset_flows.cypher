// Before an asset's columns are deleted: each tag that flows out of them into another
// asset's columns, with the columns it flows into ([tag, [keys]]), so that inheritance
// can be recomputed there once they are gone.
MATCH (c:Column)
WHERE c.key STARTS WITH $prefix
MATCH (c)-[f:TAG_FLOWS]->(n:Column)
WHERE NOT n.key STARTS WITH $prefix
WITH f.tag AS tag, collect(DISTINCT n.key) AS keys
RETURN tag, keys
ORDER BY tag
