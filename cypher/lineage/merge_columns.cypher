// Upsert a batch of column mappings (their assets and the asset edge exist). Each
// column is a (:Column {key, asset, name}) node hung off its asset by HAS_COLUMN; a
// mapping is one COLUMN_LINEAGE per (source column, target column), so column
// traversal is the same native walk as asset traversal. Origins, transformation and
// `updated_at` follow lineage.merge_edges exactly; `kind` (what the mapping does to the
// values, see service.domain.column_kinds) goes with the transformation it was read
// from, and a row without one that still knows its kind (a SQL copy is `identity`, a
// client may name it) sets it; `changed_pairs` names the mappings
// made or changed, [source key, target key], for the history and column tags.
UNWIND $rows AS m
MATCH (s:Asset {id: m.source})
MATCH (t:Asset {id: m.target})
MERGE (sc:Column {key: m.source_key})
  ON CREATE SET sc.asset = m.source, sc.name = m.source_column
MERGE (s)-[:HAS_COLUMN]->(sc)
MERGE (tc:Column {key: m.target_key})
  ON CREATE SET tc.asset = m.target, tc.name = m.target_column
MERGE (t)-[:HAS_COLUMN]->(tc)
MERGE (sc)-[r:COLUMN_LINEAGE]->(tc)
  ON CREATE SET r._new = true, r.created_at = $now, r.updated_at = $now, r.origins = []
WITH r, m, coalesce(r._new, false) AS created,
     m.transformation IS NOT NULL
       AND (m.at IS NULL OR r.transformation_at IS NULL OR m.at >= r.transformation_at) AS take,
     CASE WHEN $origin IN r.origins THEN r.origins ELSE r.origins + $origin END AS origins
WITH r, m, created, origins,
     CASE WHEN take THEN m.transformation ELSE r.transformation END AS transformation,
     CASE WHEN take AND m.at IS NOT NULL THEN m.at ELSE r.transformation_at END AS transformation_at,
     CASE WHEN take OR r.kind IS NULL OR (m.transformation IS NULL AND m.kind <> 'unknown')
          THEN coalesce(m.kind, 'unknown') ELSE r.kind END AS kind
WITH r, m, created, origins, transformation, transformation_at, kind,
     size(origins) <> size(r.origins)
       OR coalesce(transformation <> r.transformation, transformation IS NOT NULL)
       OR coalesce(kind <> r.kind, true) AS changed
SET r.transformation = transformation,
    r.kind = kind,
    r.transformation_at = transformation_at,
    r.origins = origins,
    r.updated_at = CASE WHEN changed AND NOT created THEN $now ELSE r.updated_at END
REMOVE r._new
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN changed AND NOT created THEN 1 ELSE 0 END) AS updated,
       count(*) AS total,
       collect(CASE WHEN created OR changed THEN [m.source_key, m.target_key] END) AS changed_pairs
