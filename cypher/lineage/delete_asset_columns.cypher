// The column lineage of an asset being deleted: its Column nodes with their
// COLUMN_LINEAGE, other assets' columns left in no column lineage, and the record of
// its latest OpenLineage schema (a column holding tags of its own stays: its tags are
// its asset's, mirrored for column classification). Columns are found by key prefix (`id` + newline),
// which the unique index on Column.key seeks, so this runs before or after the asset
// node itself is deleted, in the same transaction. COLUMN_LINEAGE only joins columns,
// so its far end stays unlabelled and the plan expands from each column.
CALL () {
  OPTIONAL MATCH (d:DatasetSchema {asset: $id})
  DETACH DELETE d
}
CALL () {
  MATCH (c:Column)
  WHERE c.key STARTS WITH $prefix
  OPTIONAL MATCH (c)-[:COLUMN_LINEAGE]-(other)
  WITH collect(DISTINCT c) AS own, collect(DISTINCT other) AS others
  FOREACH (col IN own | DETACH DELETE col)
  WITH [o IN others WHERE NOT o IN own] AS others
  UNWIND others AS other
  WITH other
  WHERE NOT (other)-[:COLUMN_LINEAGE]-() AND other.tags IS NULL
  DETACH DELETE other
}
RETURN true AS done
