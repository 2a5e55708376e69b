// Every (source, target) pair touching the given asset ids that is live now or open in
// the history: what an asset-wide change (a deletion, an identity merge) may have
// opened or closed, for history.record_edges. Asking after the change finds the edges
// it removed through their open history, and those it made through the live graph.
UNWIND $ids AS id
CALL (id) {
  MATCH (s:Asset {id: id})-[:LINEAGE]->(t:Asset)
  RETURN [s.id, t.id] AS pair
  UNION
  MATCH (s:Asset)-[:LINEAGE]->(t:Asset {id: id})
  RETURN [s.id, t.id] AS pair
  UNION
  MATCH (s:AssetTrail {id: id})-[w:LINEAGE_WAS]->(t:AssetTrail)
  WHERE w.until[-1] = $open
  RETURN [s.id, t.id] AS pair
  UNION
  MATCH (s:AssetTrail)-[w:LINEAGE_WAS]->(t:AssetTrail {id: id})
  WHERE w.until[-1] = $open
  RETURN [s.id, t.id] AS pair
}
RETURN collect(DISTINCT pair) AS pairs
