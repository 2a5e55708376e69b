// Open a history for live edges that have none (a database from before history was
// kept), at the edge's `created_at`, with its transformation and origins as they are
// now. One batch: the outgoing edges of up to $batch source assets after the id
// $after (ordered by id, which the unique index on Asset.id serves), answering the
// last id seen (null when done), so a backfill reads each edge once. Idempotent: a
// pair with any history is left alone, so running it again (every start-up does)
// writes nothing; MERGE keeps processes starting together from making two.
MATCH (s:Asset)
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $batch
WITH collect(s) AS sources
CALL (sources) {
  UNWIND sources AS s
  MATCH (s)-[r:LINEAGE]->(t:Asset)
  WHERE NOT EXISTS {
    MATCH (:AssetTrail {id: s.id})-[:LINEAGE_WAS]->(:AssetTrail {id: t.id})
  }
  WITH s, r, t, coalesce(r.created_at, $now) AS at
  MERGE (st:AssetTrail {id: s.id})
    ON CREATE SET st += s {.name, .type, .platform, .tags, .placeholder, .domain,
                           .domain_private, shown_since: s.updated_at}
  MERGE (tt:AssetTrail {id: t.id})
    ON CREATE SET tt += t {.name, .type, .platform, .tags, .placeholder, .domain,
                           .domain_private, shown_since: t.updated_at}
  MERGE (st)-[w:LINEAGE_WAS]->(tt)
    ON CREATE SET w.since = [at], w.until = [$open],
                  w.transformed = [r.transformation IS NOT NULL],
                  w.transformation = [coalesce(r.transformation, '')],
                  w.origin = coalesce(r.origins, []),
                  w.origin_since = [o IN coalesce(r.origins, []) | at],
                  w.origin_until = [o IN coalesce(r.origins, []) | $open],
                  w.first_closed = $open, w.run_since_ms = datetime(at).epochMillis,
                  w.last_since_ms = datetime(at).epochMillis,
                  w.last_until_ms = datetime($open).epochMillis,
                  w.last_transformation = r.transformation
  RETURN count(*) AS opened
}
RETURN opened, CASE WHEN size(sources) = $batch THEN sources[-1].id END AS last
