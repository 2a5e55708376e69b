// Move the column lineage of asset $from to the same-named columns of $into: each
// column node of $from is merged into $into's (made when missing, keyed
// `$into + $separator + name`), its mappings moved both ways with their origins
// joined, then the old column node removed.
MATCH (f:Asset {id: $from})-[:HAS_COLUMN]->(fc:Column)
MATCH (i:Asset {id: $into})
MERGE (ic:Column {key: $into + $separator + fc.name})
  ON CREATE SET ic.asset = $into, ic.name = fc.name
MERGE (i)-[:HAS_COLUMN]->(ic)
WITH fc, ic
CALL (fc, ic) {
  MATCH (fc)-[r:COLUMN_LINEAGE]->(t)
  WHERE t <> ic
  MERGE (ic)-[n:COLUMN_LINEAGE]->(t)
    ON CREATE SET n = properties(r)
    ON MATCH SET n.origins = n.origins + [o IN r.origins WHERE NOT o IN n.origins],
                 n.transformation = coalesce(n.transformation, r.transformation),
                 n.kind = coalesce(n.kind, r.kind)
  DELETE r
  RETURN count(*) AS outgoing
}
CALL (fc, ic) {
  MATCH (s)-[r:COLUMN_LINEAGE]->(fc)
  WHERE s <> ic
  MERGE (s)-[n:COLUMN_LINEAGE]->(ic)
    ON CREATE SET n = properties(r)
    ON MATCH SET n.origins = n.origins + [o IN r.origins WHERE NOT o IN n.origins],
                 n.transformation = coalesce(n.transformation, r.transformation),
                 n.kind = coalesce(n.kind, r.kind)
  DELETE r
  RETURN count(*) AS incoming
}
DETACH DELETE fc
RETURN count(*) AS columns
