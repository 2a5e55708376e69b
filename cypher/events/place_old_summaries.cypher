// Data migration (`summary_placement`): place ingestion summaries written before they
// were placed (`lineage.bulk.ingested`, `lineage.manifest.ingested` with no `hides_in`)
// in every domain private now, one page of the log by sequence number: up to $batch
// events after $after. Such a summary names no asset to place it by, yet speaks of what
// its request wrote, so only a reader of every private domain (a global admin, or one
// with a role in each) sees it. A summary is old when it was written before the
// `$placed_by` migration ended (`event_placement`: only a version that places events
// runs it, and every such version places summaries when it writes them); while that
// mark is missing, every unplaced summary is taken as old. A summary written since and
// left unplaced spoke of public assets only, and stays visible. No row while no domain
// is private: there is nothing to place them in, and they stay visible. Idempotent: a
// placed summary is left alone. Answers how many it placed and the last seq seen (null
// when done).
OPTIONAL MATCH (m:Migration {name: $placed_by})
WITH CASE WHEN m IS NOT NULL THEN datetime(m.done_at) END AS until,
     COLLECT { MATCH (d:Domain) WHERE d.private RETURN d.id ORDER BY d.id } AS domains
WHERE size(domains) > 0
MATCH (e:Event)
WHERE e.seq > $after
WITH until, domains, e ORDER BY e.seq LIMIT $batch
WITH until, domains, collect(e) AS page
CALL (until, domains, page) {
  UNWIND page AS e
  WITH e, domains, until
  WHERE e.type IN $types AND e.hides_in IS NULL
    AND (until IS NULL OR datetime(e.occurred_at) <= until)
  SET e.hides_in = domains
  RETURN count(e) AS placed
}
RETURN placed, CASE WHEN size(page) = $batch THEN page[-1].seq END AS last
