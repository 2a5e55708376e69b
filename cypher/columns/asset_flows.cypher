// Before an asset's columns are deleted: each tag that flows out of them into another
// asset's columns, with how each such column inherits it now ([key, asset, name,
// parent, source, distance, kind]). Their TAG_FLOWS go with the deleted columns, so
// this is what the recomputation there, once they are gone, reads as held before:
// what each column lost is announced.
MATCH (c:Column)
WHERE c.key STARTS WITH $prefix
MATCH (c)-[f:TAG_FLOWS]->(n:Column)
WHERE NOT n.key STARTS WITH $prefix
WITH f.tag AS tag,
     collect([n.key, n.asset, n.name, c.key, f.source, f.distance, f.kind]) AS held
RETURN tag, held
ORDER BY tag
