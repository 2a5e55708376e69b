// Upsert a batch of edges (endpoints exist). A new edge records this writer as its
// origin; an existing one gains the origin and, when one is given, the new
// transformation, unless a writer whose events may arrive out of order (`e.at`, the
// event time, given by OpenLineage) already set one from a later event. `updated_at`
// moves only when something changed, so repeating a request changes nothing.
// `changed_pairs` names the edges made or changed, [source, target], for the history.
UNWIND $edges AS e
MATCH (s:Asset {id: e.source})
MATCH (t:Asset {id: e.target})
MERGE (s)-[r:LINEAGE]->(t)
  ON CREATE SET r._new = true, r.created_at = $now, r.updated_at = $now, r.origins = []
WITH r, e, coalesce(r._new, false) AS created,
     e.transformation IS NOT NULL
       AND (e.at IS NULL OR r.transformation_at IS NULL OR e.at >= r.transformation_at) AS take,
     CASE WHEN $origin IN r.origins THEN r.origins ELSE r.origins + $origin END AS origins
WITH r, e, created, origins,
     CASE WHEN take THEN e.transformation ELSE r.transformation END AS transformation,
     CASE WHEN take AND e.at IS NOT NULL THEN e.at ELSE r.transformation_at END AS transformation_at
WITH r, e, created, origins, transformation, transformation_at,
     size(origins) <> size(r.origins)
       OR coalesce(transformation <> r.transformation, transformation IS NOT NULL) AS changed
SET r.transformation = transformation,
    r.transformation_at = transformation_at,
    r.origins = origins,
    r.updated_at = CASE WHEN changed AND NOT created THEN $now ELSE r.updated_at END
REMOVE r._new
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN changed AND NOT created THEN 1 ELSE 0 END) AS updated,
       count(*) AS total,
       collect(CASE WHEN created OR changed THEN [e.source, e.target] END) AS changed_pairs
