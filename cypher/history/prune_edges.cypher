// Retention: forget the parts of edge histories that ended before $cutoff, at most
// $batch histories per run (run until it answers fewer). Seeks by `first_closed`
// (index schema.082), so histories with nothing to forget cost nothing. Open
// intervals and those still running at $cutoff stay, so the graph as it stood at any
// instant from $cutoff on answers as before (the scalar summary, see record_edges,
// follows the arrays); a history left empty goes, and so does a trail node left with
// no history.
MATCH (s:AssetTrail)-[w:LINEAGE_WAS]->(t:AssetTrail)
WHERE w.first_closed < $cutoff
WITH s, w, t
LIMIT $batch
WITH s, w, t,
     [i IN range(0, size(w.since) - 1) WHERE w.until[i] >= $cutoff] AS kept,
     [j IN range(0, size(w.origin) - 1) WHERE w.origin_until[j] >= $cutoff] AS kept_origins
WITH s, w, t, kept,
     [i IN kept | w.since[i]] AS since,
     [i IN kept | w.until[i]] AS until,
     [i IN kept | w.transformed[i]] AS transformed,
     [i IN kept | w.transformation[i]] AS transformation,
     [j IN kept_origins | w.origin[j]] AS origin,
     [j IN kept_origins | w.origin_since[j]] AS origin_since,
     [j IN kept_origins | w.origin_until[j]] AS origin_until
FOREACH (_ IN CASE WHEN size(kept) > 0 THEN [1] ELSE [] END |
  SET w.since = since, w.until = until, w.transformed = transformed,
      w.transformation = transformation, w.origin = origin, w.origin_since = origin_since,
      w.origin_until = origin_until,
      w.first_closed = reduce(m = $open, x IN until + origin_until
                              | CASE WHEN x < m THEN x ELSE m END),
      w.run_since_ms = datetime(since[reduce(k = size(since) - 1, i IN reverse(range(0, size(since) - 2))
                                 | CASE WHEN k = i + 1 AND until[i] = since[k] THEN i ELSE k END)]).epochMillis,
      w.last_since_ms = datetime(since[-1]).epochMillis,
      w.last_until_ms = datetime(until[-1]).epochMillis,
      w.last_transformation = CASE WHEN transformed[-1] THEN transformation[-1] END,
      w.prev_since_ms = datetime(since[-2]).epochMillis,
      w.prev_until_ms = datetime(until[-2]).epochMillis,
      w.prev_transformation = CASE WHEN transformed[-2] THEN transformation[-2] END)
FOREACH (_ IN CASE WHEN size(kept) = 0 THEN [1] ELSE [] END | DELETE w)
WITH count(*) AS pruned, collect(DISTINCT s) + collect(DISTINCT t) AS ends
CALL (ends) {
  UNWIND ends AS n
  WITH DISTINCT n
  WHERE NOT (n)--()
  DELETE n
}
RETURN pruned
