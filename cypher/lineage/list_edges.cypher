// A page of edges ordered by (source, target), after the cursor's pair; absent
// filters are null. With a source filter the unique index on Asset.id seeks. Each
// edge carries its column lineage, read only for the edges of the page. $readable
// (null: every domain) lists the private domains the caller may read: an edge with an
// end in another private domain is left out.
MATCH (s:Asset)-[r:LINEAGE]->(t:Asset)
WHERE ($source IS NULL OR s.id = $source)
  AND ($target IS NULL OR t.id = $target)
  AND ($origin IS NULL OR $origin IN r.origins)
  AND (s.id > $after_source OR (s.id = $after_source AND t.id > $after_target))
  AND ($readable IS NULL OR ((s.domain_private IS NULL OR s.domain IN $readable)
                             AND (t.domain_private IS NULL OR t.domain IN $readable)))
WITH s, r, t
ORDER BY s.id, t.id
LIMIT $limit
RETURN {source: s.id, target: t.id, transformation: r.transformation, origins: r.origins,
        created_at: r.created_at, updated_at: r.updated_at,
        columns: COLLECT {
          MATCH (s)-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
          WHERE tc.asset = t.id
          WITH sc, tc, c ORDER BY sc.name, tc.name
          RETURN {source: sc.name, target: tc.name, transformation: c.transformation,
                  origins: c.origins}
        }} AS edge
