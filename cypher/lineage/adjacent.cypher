// Every edge leaving a downstream-side node and every edge entering an upstream-side
// node: a superset of the edges among the returned nodes, linear in their degree.
// The caller keeps those whose both ends were returned on that side.
CALL {
  UNWIND $down_ids AS id
  MATCH (a:Asset {id: id})-[r:LINEAGE]->(b)
  RETURN a.id AS source, b.id AS target, r.transformation AS transformation, 'downstream' AS side
  UNION ALL
  UNWIND $up_ids AS id
  MATCH (a)-[r:LINEAGE]->(b:Asset {id: id})
  RETURN a.id AS source, b.id AS target, r.transformation AS transformation, 'upstream' AS side
}
RETURN source, target, transformation, side
