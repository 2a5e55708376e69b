// Bring the history of each given (source, target) pair in line with the live graph,
// in the transaction that just changed it. A pair's history is ONE
// (:AssetTrail)-[:LINEAGE_WAS]->(:AssetTrail) relationship holding parallel arrays:
//   since[i], until[i]           the edge's existence intervals, [since, until), in
//                                time order; an open one's `until` is $open (a
//                                far-future sentinel: arrays cannot hold null)
//   transformed[i], transformation[i]
//                                the transformation in effect over interval i (false
//                                and '' for none); a changed transformation closes the
//                                interval and opens the next one
//   origin[j], origin_since[j], origin_until[j]
//                                each writer's assertion intervals
//   first_closed                 the earliest closed end of any interval, $open when
//                                none (what retention seeks by)
//   run_since_ms, last_until_ms  where the last run of back-to-back intervals began
//                                (each ending where the next began: a changed
//                                transformation, not a removal) and where it ends
//                                (until[-1]); last_since_ms and last_transformation,
//                                the last interval's start and transformation (absent
//                                for none). Scalars, read without the arrays (which
//                                live in the dynamic store, a read each): an as_of walk
//                                decides an instant in the last run by two of them,
//                                and shows an edge unchanged since then by a third;
//                                prev_since_ms, prev_until_ms and prev_transformation,
//                                the same of the interval before the last (absent for
//                                none): for an edge changed once since the instant,
//                                one test decides from them both whether it stood
//                                then and what it showed. The instants among them are
//                                epoch milliseconds (`datetime(...).epochMillis`):
//                                an integer sits in the property record, where an
//                                instant string takes a record of its own and is
//                                decoded at each read, and the walk reads these for
//                                every edge it takes
// A trail node made here starts with the live asset's display fields (assets.record_versions
// keeps them current), so an as_of walk shows a node without seeking the live asset;
// one showing its asset gone takes them again when lineage names the id anew (a
// placeholder, which records no version).
// The live state and the history are compared first, without taking a lock or making
// anything, so a pair that did not change costs two index seeks and writes nothing:
// repeating a request adds no history. Only changed pairs MERGE their trail. An
// interval closed at the instant it opened (two changes in one transaction) is dropped.
// `at` never goes back before the history's latest recorded instant, so intervals stay ordered
// even when another process's clock runs behind.
UNWIND $pairs AS p
OPTIONAL MATCH (:AssetTrail {id: p[0]})-[w:LINEAGE_WAS]->(:AssetTrail {id: p[1]})
OPTIONAL MATCH (sa:Asset {id: p[0]})-[r:LINEAGE]->(ta:Asset {id: p[1]})
WITH p, r, w, sa, ta,
     CASE WHEN r IS NULL THEN [] ELSE r.origins END AS live_origins,
     CASE WHEN w IS NULL THEN [] ELSE
       [j IN range(0, size(w.origin) - 1) WHERE w.origin_until[j] = $open | w.origin[j]]
     END AS open_origins
WITH p, r, sa, ta, live_origins,
     w IS NOT NULL AND w.until[-1] = $open AS was_open,
     w IS NOT NULL AND w.until[-1] = $open AND w.transformed[-1] = (r.transformation IS NOT NULL)
       AND w.transformation[-1] = coalesce(r.transformation, '') AS same,
     size(live_origins) = size(open_origins) AND all(o IN live_origins WHERE o IN open_origins)
       AS same_origins
WHERE (r IS NOT NULL) <> was_open OR (r IS NOT NULL AND NOT same) OR NOT same_origins
WITH p, r, live_origins,
     coalesce(sa {.name, .type, .platform, .tags, .placeholder, .domain, .domain_private,
                  shown_since: sa.updated_at}, {}) AS source_shows,
     coalesce(ta {.name, .type, .platform, .tags, .placeholder, .domain, .domain_private,
                  shown_since: ta.updated_at}, {}) AS target_shows
MERGE (s:AssetTrail {id: p[0]})
  ON CREATE SET s += source_shows
  ON MATCH SET s += CASE WHEN s.name IS NULL AND s.shown_since IS NOT NULL THEN source_shows
                         ELSE {} END
MERGE (t:AssetTrail {id: p[1]})
  ON CREATE SET t += target_shows
  ON MATCH SET t += CASE WHEN t.name IS NULL AND t.shown_since IS NOT NULL THEN target_shows
                         ELSE {} END
MERGE (s)-[w:LINEAGE_WAS]->(t)
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
    w.first_closed = reduce(m = $open, x IN until + origin_until | CASE WHEN x < m THEN x ELSE m END),
    w.run_since_ms = datetime(since[reduce(k = size(since) - 1, i IN reverse(range(0, size(since) - 2))
                               | CASE WHEN k = i + 1 AND until[i] = since[k] THEN i ELSE k END)]).epochMillis,
    w.last_since_ms = datetime(since[-1]).epochMillis,
    w.last_until_ms = datetime(until[-1]).epochMillis,
    w.last_transformation = CASE WHEN transformed[-1] THEN transformation[-1] END,
    w.prev_since_ms = datetime(since[-2]).epochMillis,
    w.prev_until_ms = datetime(until[-2]).epochMillis,
    w.prev_transformation = CASE WHEN transformed[-2] THEN transformation[-2] END
RETURN count(*) AS recorded
