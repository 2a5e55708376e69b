// Data migration (`lineage_history_runs`): give each edge history written before its
// scalar summary was kept (`run_since`, `last_since`, `last_until`,
// `last_transformation`, see record_edges) that summary, from its arrays. Until it
// has run, an as_of walk reads such a history from its arrays, which answers the
// same, only slower. One batch: the outgoing histories of up to $batch trails after
// the id $after (ordered by id, which the trail's unique index serves), answering the
// last id seen (null when done). Idempotent: a history that has its summary is left
// alone (one emptied by a same-instant close has none to have).
MATCH (s:AssetTrail)
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $batch
WITH collect(s) AS trails
CALL (trails) {
  UNWIND trails AS s
  MATCH (s)-[w:LINEAGE_WAS]->()
  WHERE w.last_until IS NULL AND size(w.until) > 0
  WITH w, w.since AS since, w.until AS until
  SET w.run_since = since[reduce(k = size(since) - 1, i IN reverse(range(0, size(since) - 2))
                                 | CASE WHEN k = i + 1 AND until[i] = since[k] THEN i ELSE k END)],
      w.last_since = since[-1],
      w.last_until = until[-1],
      w.last_transformation = CASE WHEN w.transformed[-1] THEN w.transformation[-1] END
  RETURN count(*) AS filled
}
RETURN filled, CASE WHEN size(trails) = $batch THEN trails[-1].id END AS last
