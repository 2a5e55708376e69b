// Remove one edge, whoever asserted it, with the column lineage between its two
// assets; a column left in no column lineage goes too, unless it holds tags of its own
// (its asset's, mirrored for column classification). The endpoints stay. `held`: how
// each column that went inherited a tag until then, as [tag, key, asset, name, parent,
// source, distance, kind]: its TAG_FLOWS went with it, so the recomputation after reads
// from here what it lost.
MATCH (s:Asset {id: $source})-[r:LINEAGE]->(t:Asset {id: $target})
CALL (s, t) {
  MATCH (s)-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
  WHERE tc.asset = t.id
  DELETE c
  WITH collect(DISTINCT sc) + collect(DISTINCT tc) AS touched
  UNWIND touched AS col
  WITH DISTINCT col
  WHERE NOT (col)-[:COLUMN_LINEAGE]-() AND col.tags IS NULL
  OPTIONAL MATCH (p:Column)-[f:TAG_FLOWS]->(col)
  WITH col, collect([f.tag, col.key, col.asset, col.name, p.key, f.source, f.distance,
                     f.kind]) AS held
  DETACH DELETE col
  RETURN collect(held) AS gone_held
}
DELETE r
RETURN [h IN reduce(acc = [], part IN gone_held | acc + part) WHERE h[0] IS NOT NULL] AS held
