// Data migration (`lineage_history_previous`): give each edge history written before
// they were kept the scalars of its interval before the last (`prev_since`,
// `prev_until`, `prev_transformation`, see record_edges), from its arrays. Until it
// has run, an as_of walk reads such an edge from its arrays, which answers the same,
// only slower. One batch: the outgoing histories of up to $batch trails after the id
// $after (ordered by id, which the trail's unique index serves), answering the last id
// seen (null when done). Idempotent: a history that has them is left alone, and so is
// one of a single interval (none to have).
MATCH (s:AssetTrail)
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $batch
WITH collect(s) AS trails
CALL (trails) {
  UNWIND trails AS s
  MATCH (s)-[w:LINEAGE_WAS]->()
  WHERE w.prev_until IS NULL AND size(w.since) > 1
  SET w.prev_since = w.since[-2],
      w.prev_until = w.until[-2],
      w.prev_transformation = CASE WHEN w.transformed[-2] THEN w.transformation[-2] END
  RETURN count(*) AS filled
}
RETURN filled, CASE WHEN size(trails) = $batch THEN trails[-1].id END AS last
