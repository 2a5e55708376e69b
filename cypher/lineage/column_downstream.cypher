// Columns downstream of the root column within {{depth}} hops, each once, at its
// fewest-hop distance: the pruning breadth-first expand of lineage.downstream
// (VarLengthExpand(Pruning,BFS)) over COLUMN_LINEAGE, so cost grows with the columns
// and mappings reached, never with the number of paths, and cycles terminate.
// Nearest first, at most $limit, as one row holding the list.
MATCH (root:Column {key: $key})
MATCH p = (root)-[:COLUMN_LINEAGE*1..{{depth}}]->(n)
WITH n, min(length(p)) AS distance
WHERE n.key <> $key
WITH n, distance
ORDER BY distance, n.asset, n.name
LIMIT $limit
RETURN collect({asset: n.asset, column: n.name, distance: distance}) AS reached
