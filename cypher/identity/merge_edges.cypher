// Move every lineage edge of asset $from to asset $into (both ends). An edge that
// $into already has keeps its own transformation and gains the moved one's origins;
// edges between the two are dropped (they would be self-loops). One MERGE and one
// DELETE per edge: linear in the edges moved. The writers' index entries into $from
// (lineage.index_origin_targets) move with its incoming edges and column lineage.
MATCH (f:Asset {id: $from})
MATCH (i:Asset {id: $into})
CALL (f, i) {
  MATCH (f)-[r:LINEAGE]->(t)
  WHERE t <> i
  MERGE (i)-[n:LINEAGE]->(t)
    ON CREATE SET n = properties(r)
    ON MATCH SET n.origins = n.origins + [o IN r.origins WHERE NOT o IN n.origins],
                 n.transformation = coalesce(n.transformation, r.transformation)
  DELETE r
  RETURN count(*) AS outgoing
}
CALL (f, i) {
  MATCH (s)-[r:LINEAGE]->(f)
  WHERE s <> i
  MERGE (s)-[n:LINEAGE]->(i)
    ON CREATE SET n = properties(r)
    ON MATCH SET n.origins = n.origins + [o IN r.origins WHERE NOT o IN n.origins],
                 n.transformation = coalesce(n.transformation, r.transformation)
  DELETE r
  RETURN count(*) AS incoming
}
CALL (f, i) {
  MATCH (o:EdgeOrigin)-[a:ASSERTS_INTO]->(f)
  MERGE (o)-[:ASSERTS_INTO]->(i)
  DELETE a
}
RETURN outgoing + incoming AS moved
