// Assets downstream of the root within {{depth}} hops, each once, at its fewest-hop
// distance. Grouping `min(length(p))` by end node is what lets the planner use the
// pruning breadth-first expand (VarLengthExpand(Pruning,BFS)): cost grows with the
// nodes and edges reached, never with the number of paths, and cycles terminate.
// Nearest first, so that LIMIT keeps the closest; one row holding the list, since
// decoding one record with a list is far cheaper for the driver than many records.
MATCH (root:Asset {id: $id})
MATCH p = (root)-[:LINEAGE*1..{{depth}}]->(n)
WITH n, min(length(p)) AS distance
WHERE n.id <> $id
WITH n, distance
ORDER BY distance, n.id
LIMIT $limit
RETURN collect({node: n {.id, .name, .type, .platform, .tags, .placeholder}, distance: distance}) AS reached
