// Withdraw this project's assertion from column lineage its new manifest no longer
// has (pairs passed as source column key + '\n' + target column key). A mapping left
// with no origin leaves the graph (only those count as removed), and so does a column
// left in no column lineage.
MATCH (sc:Column)-[r:COLUMN_LINEAGE]->(tc:Column)
WHERE $origin IN r.origins AND NOT (sc.key + '\n' + tc.key) IN $keep
WITH sc, tc, r, [o IN r.origins WHERE o <> $origin] AS rest
FOREACH (_ IN CASE WHEN size(rest) = 0 THEN [1] ELSE [] END | DELETE r)
FOREACH (_ IN CASE WHEN size(rest) > 0 THEN [1] ELSE [] END | SET r.origins = rest)
WITH sum(CASE WHEN size(rest) = 0 THEN 1 ELSE 0 END) AS removed,
     collect(DISTINCT sc) + collect(DISTINCT tc) AS touched
CALL (touched) {
  UNWIND touched AS col
  WITH DISTINCT col
  WHERE NOT (col)-[:COLUMN_LINEAGE]-()
  DETACH DELETE col
}
RETURN removed
