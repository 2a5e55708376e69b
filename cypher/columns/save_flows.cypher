// Rewrite how $tag is inherited where it changed: drop the TAG_FLOWS into each column
// of $drop, then add one (parent)-[:TAG_FLOWS {tag, source, distance, kind}]->(column)
// per row: the parent in the breadth-first tree from the nearest tagged column, so a
// column's path back to its source is the chain of its TAG_FLOWS (columns.columns).
CALL () {
  UNWIND $drop AS key
  MATCH (:Column)-[f:TAG_FLOWS {tag: $tag}]->(:Column {key: key})
  DELETE f
}
CALL () {
  UNWIND $rows AS row
  MATCH (p:Column {key: row.parent})
  MATCH (c:Column {key: row.key})
  CREATE (p)-[:TAG_FLOWS {tag: $tag, source: row.source, distance: row.distance,
                          kind: row.kind}]->(c)
}
RETURN size($rows) AS written
