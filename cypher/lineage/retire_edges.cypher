// Withdraw one writer's assertion from the edges and column mappings it asserted
// before but no longer names: a bulk request with `replace=true`, a job's COMPLETE
// OpenLineage run, a dbt project's upload (its prune). `$keep` holds the edges the
// writer still asserts as 'source' + '\n' + 'target', `$keep_columns` its column
// mappings as source column key + '\n' + target column key. An edge or mapping left
// with no origin leaves the graph; nothing else removes one on a writer's behalf.
// Mappings go first; a column left in no column lineage goes too, and so does any
// column lineage still between the ends of an edge that leaves (none may lie off an
// edge). `updated_at` moves on what stays. The answer: each edge let go, sorted, with
// `removed` (it left the graph) and the edge as it stood, for its event; and every
// column mapping changed, as [source key, target key], for the history; `held`, how
// each column that went (left in no column lineage) inherited a tag until then, as
// [tag, key, asset, name, parent, source, distance, kind]: its TAG_FLOWS went with it,
// so the recomputation after reads from here what it lost.
// The writer's set is found through its index, `(:EdgeOrigin)-[:ASSERTS_INTO]->` the
// assets its edges and mappings point into (lineage.index_origin_targets): the cost
// follows the set, never the graph. The origin node is locked first, as its writers
// lock it; an entry into an asset the origin no longer asserts anything into goes.
OPTIONAL MATCH (eo:EdgeOrigin {origin: $origin})
FOREACH (_ IN CASE WHEN eo IS NULL THEN [] ELSE [1] END | SET eo._lock = true REMOVE eo._lock)
WITH eo
CALL (eo) {
  MATCH (eo)-[:ASSERTS_INTO]->(:Asset)-[:HAS_COLUMN]->(tc:Column)<-[c:COLUMN_LINEAGE]-(sc:Column)
  WHERE $origin IN c.origins AND NOT (sc.key + '\n' + tc.key) IN $keep_columns
  WITH sc, tc, c, [o IN c.origins WHERE o <> $origin] AS rest
  FOREACH (_ IN CASE WHEN size(rest) = 0 THEN [1] ELSE [] END | DELETE c)
  FOREACH (_ IN CASE WHEN size(rest) > 0 THEN [1] ELSE [] END |
    SET c.origins = rest, c.updated_at = $now)
  WITH collect([sc.key, tc.key]) AS column_pairs,
       sum(CASE WHEN size(rest) = 0 THEN 1 ELSE 0 END) AS columns_removed,
       collect(DISTINCT sc) + collect(DISTINCT tc) AS touched
  CALL (touched) {
    UNWIND touched AS col
    WITH DISTINCT col
    WHERE NOT (col)-[:COLUMN_LINEAGE]-() AND col.tags IS NULL
    OPTIONAL MATCH (p:Column)-[f:TAG_FLOWS]->(col)
    WITH col, collect([f.tag, col.key, col.asset, col.name, p.key, f.source, f.distance,
                       f.kind]) AS held
    DETACH DELETE col
    RETURN collect(held) AS gone_held
  }
  RETURN column_pairs, columns_removed, gone_held
}
CALL (eo) {
  MATCH (eo)-[:ASSERTS_INTO]->(t:Asset)<-[r:LINEAGE]-(s:Asset)
  WHERE $origin IN r.origins AND NOT (s.id + '\n' + t.id) IN $keep
  WITH s, t, r, [o IN r.origins WHERE o <> $origin] AS rest
  ORDER BY s.id, t.id
  WITH s, t, r, rest,
       {source: s.id, target: t.id, removed: size(rest) = 0,
        edge: {source: s.id, target: t.id, transformation: r.transformation,
               origins: r.origins, created_at: r.created_at, updated_at: r.updated_at}}
         AS retired
  FOREACH (_ IN CASE WHEN size(rest) > 0 THEN [1] ELSE [] END |
    SET r.origins = rest, r.updated_at = $now)
  WITH s, t, r, rest, retired
  CALL (s, t, rest) {
    WITH s, t, rest WHERE size(rest) = 0
    MATCH (s)-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
    WHERE tc.asset = t.id
    DELETE c
    RETURN collect([sc.key, tc.key]) AS stray, collect(DISTINCT sc) + collect(DISTINCT tc) AS loose
  }
  FOREACH (_ IN CASE WHEN size(rest) = 0 THEN [1] ELSE [] END | DELETE r)
  WITH collect(retired) AS edges, collect(stray) AS strays, collect(loose) AS looses
  CALL (looses) {
    UNWIND looses AS loose
    UNWIND loose AS col
    WITH DISTINCT col
    WHERE NOT (col)-[:COLUMN_LINEAGE]-() AND col.tags IS NULL
    OPTIONAL MATCH (p:Column)-[f:TAG_FLOWS]->(col)
    WITH col, collect([f.tag, col.key, col.asset, col.name, p.key, f.source, f.distance,
                       f.kind]) AS held
    DETACH DELETE col
    RETURN collect(held) AS loose_held
  }
  RETURN edges, reduce(acc = [], pairs IN strays | acc + pairs) AS stray, loose_held
}
CALL (eo) {
  MATCH (eo)-[a:ASSERTS_INTO]->(t:Asset)
  WHERE NOT EXISTS { MATCH (t)<-[r:LINEAGE]-() WHERE $origin IN r.origins }
    AND NOT EXISTS {
      MATCH (t)-[:HAS_COLUMN]->(:Column)<-[c:COLUMN_LINEAGE]-() WHERE $origin IN c.origins
    }
  DELETE a
}
RETURN edges, column_pairs + stray AS column_pairs, size(column_pairs) AS columns_retired,
       columns_removed,
       [h IN reduce(acc = [], part IN gone_held + loose_held | acc + part)
        WHERE h[0] IS NOT NULL] AS held
