// Columns upstream of the root column within {{depth}} hops, each once, at its
// fewest-hop distance; the mirror of lineage.column_downstream (same pruning
// breadth-first expand, same single-row answer).
MATCH (root:Column {key: $key})
MATCH p = (root)<-[:COLUMN_LINEAGE*1..{{depth}}]-(n)
WITH n, min(length(p)) AS distance
WHERE n.key <> $key
WITH n, distance
ORDER BY distance, n.asset, n.name
LIMIT $limit
RETURN collect({asset: n.asset, column: n.name, distance: distance}) AS reached
