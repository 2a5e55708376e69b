// Which of the given edges and column mappings one writer asserts now. A late
// COMPLETE of an OpenLineage job (older than the run whose set stands) may refresh
// those, whose transformation goes by event time, but must not bring back what the
// newer run dropped. Each pair is found through its endpoints' unique keys.
CALL () {
  UNWIND $edges AS e
  MATCH (:Asset {id: e.source})-[r:LINEAGE]->(:Asset {id: e.target})
  WHERE $origin IN r.origins
  RETURN collect([e.source, e.target]) AS edges
}
CALL () {
  UNWIND $columns AS m
  MATCH (:Column {key: m.source_key})-[r:COLUMN_LINEAGE]->(:Column {key: m.target_key})
  WHERE $origin IN r.origins
  RETURN collect([m.source_key, m.target_key]) AS columns
}
RETURN edges, columns
