// Bring the history of each given column mapping, [source column key, target column
// key], in line with the live column lineage, in the transaction that just changed it:
// history.record_edges for (:ColumnTrail {key, asset, name})-[:COLUMN_LINEAGE_WAS]->
// (:ColumnTrail), the same arrays kept the same way (see that file). A pair that did
// not change costs two index seeks and writes nothing.
UNWIND $pairs AS p
OPTIONAL MATCH (:ColumnTrail {key: p[0]})-[w:COLUMN_LINEAGE_WAS]->(:ColumnTrail {key: p[1]})
OPTIONAL MATCH (:Column {key: p[0]})-[r:COLUMN_LINEAGE]->(:Column {key: p[1]})
WITH p, r, w,
     CASE WHEN r IS NULL THEN [] ELSE r.origins END AS live_origins,
     CASE WHEN w IS NULL THEN [] ELSE
       [j IN range(0, size(w.origin) - 1) WHERE w.origin_until[j] = $open | w.origin[j]]
     END AS open_origins
WITH p, r, live_origins,
     w IS NOT NULL AND w.until[-1] = $open AS was_open,
     w IS NOT NULL AND w.until[-1] = $open AND w.transformed[-1] = (r.transformation IS NOT NULL)
       AND w.transformation[-1] = coalesce(r.transformation, '') AS same,
     size(live_origins) = size(open_origins) AND all(o IN live_origins WHERE o IN open_origins)
       AS same_origins
WHERE (r IS NOT NULL) <> was_open OR (r IS NOT NULL AND NOT same) OR NOT same_origins
MERGE (s:ColumnTrail {key: p[0]})
  ON CREATE SET s.asset = split(p[0], '\n')[0],
                s.name = substring(p[0], size(split(p[0], '\n')[0]) + 1)
MERGE (t:ColumnTrail {key: p[1]})
  ON CREATE SET t.asset = split(p[1], '\n')[0],
                t.name = substring(p[1], size(split(p[1], '\n')[0]) + 1)
MERGE (s)-[w:COLUMN_LINEAGE_WAS]->(t)
  ON CREATE SET w.since = [], w.until = [], w.transformed = [], w.transformation = [],
                w.origin = [], w.origin_since = [], w.origin_until = []
WITH w, r, live_origins,
     reduce(m = $now, x IN w.since + w.origin_since + [u IN w.until WHERE u <> $open]
       | CASE WHEN x > m THEN x ELSE m END) AS at,
     size(w.until) > 0 AND w.until[-1] = $open AS open,
     size(w.until) > 0 AND w.until[-1] = $open AND w.transformed[-1] = (r.transformation IS NOT NULL)
       AND w.transformation[-1] = coalesce(r.transformation, '') AS same
WITH w, r, live_origins, at,
     open AND NOT (r IS NOT NULL AND same) AS closing,
     r IS NOT NULL AND NOT (open AND same) AS opening
WITH w, r, live_origins, at, opening,
     CASE WHEN closing AND w.since[-1] = at THEN size(w.since) - 1 ELSE size(w.since) END AS kept,
     closing AND w.since[-1] < at AS ending
WITH w, r, live_origins, at, opening,
     w.since[..kept] AS since,
     CASE WHEN ending THEN w.until[..-1] + at ELSE w.until[..kept] END AS until,
     w.transformed[..kept] AS transformed,
     w.transformation[..kept] AS transformation,
     [o IN live_origins WHERE NOT o IN
       [j IN range(0, size(w.origin) - 1) WHERE w.origin_until[j] = $open | w.origin[j]]] AS joining
WITH w, at, joining,
     since + CASE WHEN opening THEN [at] ELSE [] END AS since,
     until + CASE WHEN opening THEN [$open] ELSE [] END AS until,
     transformed + CASE WHEN opening THEN [r.transformation IS NOT NULL] ELSE [] END AS transformed,
     transformation + CASE WHEN opening THEN [coalesce(r.transformation, '')] ELSE [] END
       AS transformation,
     [j IN range(0, size(w.origin) - 1) |
       CASE WHEN w.origin_until[j] = $open AND NOT w.origin[j] IN live_origins
            THEN at ELSE w.origin_until[j] END] + [o IN joining | $open] AS origin_until
SET w.since = since,
    w.until = until,
    w.transformed = transformed,
    w.transformation = transformation,
    w.origin = w.origin + joining,
    w.origin_since = w.origin_since + [o IN joining | at],
    w.origin_until = origin_until,
    w.first_closed = reduce(m = $open, x IN until + origin_until | CASE WHEN x < m THEN x ELSE m END)
RETURN count(*) AS recorded
