// history.backfill_edges for column lineage: a history opened at the mapping's
// `created_at` for each live mapping without one, over the outgoing mappings of up to
// $batch columns after the key $after (the unique index on Column.key orders them);
// `last` is the last key seen, null when done.
MATCH (s:Column)
WHERE s.key > $after
WITH s ORDER BY s.key LIMIT $batch
WITH collect(s) AS sources
CALL (sources) {
  UNWIND sources AS s
  MATCH (s)-[r:COLUMN_LINEAGE]->(t:Column)
  WHERE NOT EXISTS {
    MATCH (:ColumnTrail {key: s.key})-[:COLUMN_LINEAGE_WAS]->(:ColumnTrail {key: t.key})
  }
  WITH s, r, t, coalesce(r.created_at, $now) AS at
  MERGE (st:ColumnTrail {key: s.key})
    ON CREATE SET st.asset = s.asset, st.name = s.name
  MERGE (tt:ColumnTrail {key: t.key})
    ON CREATE SET tt.asset = t.asset, tt.name = t.name
  MERGE (st)-[w:COLUMN_LINEAGE_WAS]->(tt)
    ON CREATE SET w.since = [at], w.until = [$open],
                  w.transformed = [r.transformation IS NOT NULL],
                  w.transformation = [coalesce(r.transformation, '')],
                  w.origin = coalesce(r.origins, []),
                  w.origin_since = [o IN coalesce(r.origins, []) | at],
                  w.origin_until = [o IN coalesce(r.origins, []) | $open],
                  w.first_closed = $open
  RETURN count(*) AS opened
}
RETURN opened, CASE WHEN size(sources) = $batch THEN sources[-1].key END AS last
