// The root (null when there is no such asset) and, as one list, every edge leaving
// a downstream-side node and every edge entering an upstream-side node: a superset
// of the edges among the returned nodes, linear in their degree. The caller keeps
// those whose both ends were returned on that side. One row, one round trip.
CALL () {
  UNWIND $down_ids AS id
  MATCH (a:Asset {id: id})-[r:LINEAGE]->(b)
  RETURN a.id AS source, b.id AS target, r.transformation AS transformation, 'downstream' AS side
  UNION ALL
  UNWIND $up_ids AS id
  MATCH (a)-[r:LINEAGE]->(b:Asset {id: id})
  RETURN a.id AS source, b.id AS target, r.transformation AS transformation, 'upstream' AS side
}
WITH collect([source, target, transformation, side]) AS edges
OPTIONAL MATCH (root:Asset {id: $id})
RETURN root {.id, .name, .type, .platform, .tags, .placeholder} AS root, edges
