// Assets upstream of the root within {{depth}} hops, each once, at its fewest-hop
// distance; the mirror of lineage.downstream (same pruning breadth-first expand,
// same single-row answer).
MATCH (root:Asset {id: $id})
MATCH p = (root)<-[:LINEAGE*1..{{depth}}]-(n)
WITH n, min(length(p)) AS distance
WHERE n.id <> $id
WITH n, distance
ORDER BY distance, n.id
LIMIT $limit
RETURN collect({node: n {.id, .name, .type, .platform, .tags, .placeholder}, distance: distance}) AS reached
