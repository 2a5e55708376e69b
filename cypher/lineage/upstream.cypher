// Assets upstream of the root within {{depth}} hops, each once, at its fewest-hop
// distance; the mirror of lineage.downstream (same pruning breadth-first expand).
MATCH (root:Asset {id: $id})
MATCH p = (root)<-[:LINEAGE*1..{{depth}}]-(n)
WITH n, min(length(p)) AS distance
WHERE n.id <> $id
RETURN n {.id, .name, .type, .platform, .tags, .placeholder} AS node, distance
ORDER BY distance, node.id
LIMIT $limit
