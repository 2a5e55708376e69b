// Index one writer's batch for its replace: `(:EdgeOrigin {origin})-[:ASSERTS_INTO]->`
// every asset `$targets` names (the distinct targets of the batch's edges and column
// mappings, which exist), so `lineage.retire_edges` finds the writer's set from its
// targets instead of reading every edge. Runs before the batch's edges are merged, in
// their transaction; the origin node is locked first, so a writer of that origin and
// a replace of it (which takes the same lock) never interleave an index entry with an
// edge. One MERGE per target between two located nodes: constant cost per target.
MERGE (o:EdgeOrigin {origin: $origin})
  ON MATCH SET o._lock = true
REMOVE o._lock
WITH o
UNWIND $targets AS id
MATCH (t:Asset {id: id})
MERGE (o)-[:ASSERTS_INTO]->(t)
RETURN count(*) AS indexed
