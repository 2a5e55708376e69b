// Remove one edge, whoever asserted it, with the column lineage between its two
// assets; a column left in no column lineage goes too, unless it holds tags of its own
// (its asset's, mirrored for column classification). The endpoints stay.
MATCH (s:Asset {id: $source})-[r:LINEAGE]->(t:Asset {id: $target})
CALL (s, t) {
  MATCH (s)-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
  WHERE tc.asset = t.id
  DELETE c
  WITH collect(DISTINCT sc) + collect(DISTINCT tc) AS touched
  UNWIND touched AS col
  WITH DISTINCT col
  WHERE NOT (col)-[:COLUMN_LINEAGE]-() AND col.tags IS NULL
  DETACH DELETE col
}
DELETE r
RETURN count(*) AS deleted
