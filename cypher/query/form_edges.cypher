// Query language, stage two, `edges`: every lineage edge between two reached assets
// (rows `n, distance`), a page ordered by (source, target) after the cursor's pair.
// `b IN ns` costs no scan: Neo4j checks a list it reuses as a hash set. Appended by
// the compiler (service/domain/query/forms.py), never run alone.
WITH collect(n) AS ns
UNWIND ns AS a
MATCH (a)-[r:LINEAGE]->(b)
WHERE b IN ns
  AND (a.id > $after_source OR (a.id = $after_source AND b.id > $after_target))
WITH a, r, b ORDER BY a.id, b.id LIMIT $fetch
RETURN collect({source: a.id, target: b.id, transformation: r.transformation}) AS edges
