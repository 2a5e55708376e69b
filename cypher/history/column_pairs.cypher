// Every column mapping touching a column of the given assets (keys by prefix: asset id
// + newline, which the unique indexes on Column.key and ColumnTrail.key seek) that is
// live now or open in the history, as [source key, target key]: what an asset-wide
// change may have opened or closed, for history.record_columns.
UNWIND $prefixes AS prefix
CALL (prefix) {
  MATCH (c:Column)
  WHERE c.key STARTS WITH prefix
  MATCH (c)-[:COLUMN_LINEAGE]->(o:Column)
  RETURN [c.key, o.key] AS pair
  UNION
  MATCH (c:Column)
  WHERE c.key STARTS WITH prefix
  MATCH (o:Column)-[:COLUMN_LINEAGE]->(c)
  RETURN [o.key, c.key] AS pair
  UNION
  MATCH (c:ColumnTrail)
  WHERE c.key STARTS WITH prefix
  MATCH (c)-[w:COLUMN_LINEAGE_WAS]->(o:ColumnTrail)
  WHERE w.until[-1] = $open
  RETURN [c.key, o.key] AS pair
  UNION
  MATCH (c:ColumnTrail)
  WHERE c.key STARTS WITH prefix
  MATCH (o:ColumnTrail)-[w:COLUMN_LINEAGE_WAS]->(c)
  WHERE w.until[-1] = $open
  RETURN [o.key, c.key] AS pair
}
RETURN collect(DISTINCT pair) AS pairs
