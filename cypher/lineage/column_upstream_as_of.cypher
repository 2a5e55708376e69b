// lineage.column_upstream as column lineage stood at $as_of: the same pruning
// breadth-first walk (VarLengthExpand(Pruning,BFS)) over the history layer
// ((:ColumnTrail)-[:COLUMN_LINEAGE_WAS]->(:ColumnTrail), see history.record_columns),
// each mapping taken only when one of its intervals holds $as_of
// (since[i] <= $as_of < until[i]; the intervals are in time order, so: more of them
// began by then than ended, each array read once, see lineage.traverse_as_of). Same
// single-row answer.
MATCH (root:ColumnTrail {key: $key})
MATCH p = (root)<-[:COLUMN_LINEAGE_WAS*1..{{depth}}]-(n)
WHERE all(w IN relationships(p) WHERE
  size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]))
WITH n, min(length(p)) AS distance
WHERE n.key <> $key
WITH n, distance
ORDER BY distance, n.asset, n.name
LIMIT $limit
RETURN collect({asset: n.asset, column: n.name, distance: distance}) AS reached
