// Data migration (`lineage_history_instants`): give each edge history written before
// they were kept its scalar summary with the instants in epoch milliseconds
// (`run_since_ms`, `last_since_ms`, `last_until_ms`, `prev_since_ms`, `prev_until_ms`,
// and `last_transformation`, `prev_transformation`; see record_edges), from its
// arrays, and drop the instant strings earlier versions kept for the same summary
// (`run_since`, `last_since`, `last_until`, `prev_since`, `prev_until`), which nothing
// reads any more. It takes the place of the earlier `lineage_history_runs` and
// `lineage_history_previous`: the arrays hold all it needs. Until it has run, an as_of
// walk reads such a history from its arrays, which answers the same, only slower. One
// batch: the outgoing histories of up to $batch trails after the id $after (ordered by
// id, which the trail's unique index serves), answering the last id seen (null when
// done). Idempotent: a history that has its summary (of its last interval, and of the
// one before when it has two) and no instant string is left alone (one emptied by a
// same-instant close has no summary to have).
MATCH (s:AssetTrail)
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $batch
WITH collect(s) AS trails
CALL (trails) {
  UNWIND trails AS s
  MATCH (s)-[w:LINEAGE_WAS]->()
  WHERE (w.last_until_ms IS NULL AND size(w.until) > 0)
     OR (w.prev_until_ms IS NULL AND size(w.until) > 1)
     OR w.last_until IS NOT NULL OR w.prev_since IS NOT NULL
  WITH w, w.since AS since, w.until AS until, w.transformed AS transformed,
       w.transformation AS transformation
  SET w.run_since_ms = datetime(since[reduce(k = size(since) - 1, i IN reverse(range(0, size(since) - 2))
                                 | CASE WHEN k = i + 1 AND until[i] = since[k] THEN i ELSE k END)]).epochMillis,
      w.last_since_ms = datetime(since[-1]).epochMillis,
      w.last_until_ms = datetime(until[-1]).epochMillis,
      w.last_transformation = CASE WHEN transformed[-1] THEN transformation[-1] END,
      w.prev_since_ms = datetime(since[-2]).epochMillis,
      w.prev_until_ms = datetime(until[-2]).epochMillis,
      w.prev_transformation = CASE WHEN transformed[-2] THEN transformation[-2] END
  REMOVE w.run_since, w.last_since, w.last_until, w.prev_since, w.prev_until
  RETURN count(*) AS filled
}
RETURN filled, CASE WHEN size(trails) = $batch THEN trails[-1].id END AS last
