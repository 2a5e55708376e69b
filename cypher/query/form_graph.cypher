// Query language, stage two, `graph`: a page of the reached assets (rows `n,
// distance`, as `form_nodes`) and the edges among that page's assets. Appended by
// the compiler (service/domain/query/forms.py), never run alone.
WITH n, distance
WHERE distance > $after_distance OR (distance = $after_distance AND n.id > $after_id)
WITH n, distance ORDER BY distance, n.id LIMIT $fetch
WITH collect(n) AS ns,
     collect(n {.id, .name, .type, .platform, .tags, .placeholder, distance: distance}) AS nodes
WITH nodes, ns[..$limit] AS page
CALL (page) {
  UNWIND page AS a
  MATCH (a)-[r:LINEAGE]->(b)
  WHERE b IN page
  WITH a, r, b ORDER BY a.id, b.id
  RETURN collect({source: a.id, target: b.id, transformation: r.transformation}) AS edges
}
RETURN nodes, edges
