// lineage.traverse as the graph stood at $as_of, walking the history layer
// ((:AssetTrail)-[:LINEAGE_WAS]->(:AssetTrail), see history.record_edges) instead of
// the live graph: same answer shape, same `authorised` re-check, same limits.
//
// The root: $id if that asset existed at $as_of, else the asset a merge made $id a
// former id of, if that one did. An asset existed at $as_of when its newest
// AssetVersion made at or before then is not a deletion, or when the live asset was
// created by then and after that version (none: a placeholder, which records no
// version, or an asset from before versions were kept; a deletion: a placeholder made
// anew at a deleted id), or, gone and never versioned (a placeholder deleted or merged
// away), when its trail has an edge in effect then (an edge's ends exist with it).
// A root that existed but never took part in lineage answers itself alone.
//
// An edge took part at $as_of when one of its intervals holds it
// (since[i] <= $as_of < until[i]). The intervals are in order and do not overlap
// (until[i] <= since[i + 1]), so that is: more of them began by $as_of than ended by
// then, and the one holding it is the last that began. The arrays live in the dynamic
// store, each read costing about what the walk's step does, so most edges are decided
// by the relationship's scalar summary (record_edges), whose instants are epoch
// milliseconds compared with $as_of_ms ($as_of's, computed by the service): in the last
// run of back-to-back intervals (run_since_ms <= $as_of_ms) an edge took part when
// $as_of_ms < last_until_ms, and one unchanged since then (last_since_ms <= $as_of_ms)
// shows last_transformation; only an instant before that run (or a history from before
// the summary was kept in milliseconds, whose null fields fail every comparison) counts
// through the arrays, each read once (an index loop reads the property at every step).
// That test is a relationship predicate on the
// walk, and each walk still groups `min(length(p))` by end node, so the planner keeps
// the pruning breadth-first expand: EXPLAIN and PROFILE show
// VarLengthExpand(Pruning,BFS,All) with the predicate inlined (Neo4j 5.26), cost
// growing with the edges reached, not the paths (a test guards the plan). A node is
// shown from the trail the walk reached when what the trail shows has not changed since
// $as_of (`shown_since`, assets.record_versions: the live asset's display fields, or a
// placeholder's for an asset gone), with no seek; else as the live asset when that has
// not changed since (`updated_at`), else as its newest version at $as_of, else by its
// id alone as a placeholder (it was one then: a placeholder records no version; or it
// was deleted before versions were kept). The edges keep the transformation in effect
// at $as_of. An edge between two nodes shown is decided by one CASE that answers
// both whether it stood at $as_of and what it showed ([transformation], or null when
// it did not stand): from the last interval's scalars when that began by $as_of, from
// the one before's (`prev_since_ms`, `prev_until_ms`) when that did, else from the arrays
// (the interval that began last by $as_of, if it had not ended by then).
CALL () {
  OPTIONAL MATCH (t:ApiToken {hash: $given.token_hash})
  OPTIONAL MATCH (u:User {id: t.user_id})
  WITH t, u, $given.token_hash IS NULL OR (
    t IS NOT NULL AND t.revoked_at IS NULL AND size(t.scopes) > 0
    AND (t.expires_at IS NULL OR t.expires_at > $now)
    AND (t.user_id IS NULL OR (u IS NOT NULL AND NOT coalesce(u.disabled, false)))
  ) AS valid
  RETURN CASE
    WHEN NOT coalesce(valid, false) THEN false
    WHEN $given.access IS NULL OR $given.access = [coalesce(u.role, '')] + COLLECT {
      MATCH (u)-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain)
      RETURN d.id + ' ' + g.role AS grant ORDER BY grant
    } THEN true
  END AS authorised
}
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(aliased:Asset) WHERE authorised
CALL (authorised, aliased) {
  UNWIND CASE WHEN authorised THEN [$id] + CASE WHEN aliased IS NULL THEN [] ELSE [aliased.id] END
              ELSE [] END AS candidate
  CALL (candidate) {
    OPTIONAL MATCH (v:AssetVersion {asset_id: candidate})
    WHERE v.at <= $as_of
    RETURN v ORDER BY v.version DESC LIMIT 1
  }
  OPTIONAL MATCH (a:Asset {id: candidate})
  WITH candidate, v, a
  WHERE (v IS NOT NULL AND NOT coalesce(v.deleted, false))
     OR (a IS NOT NULL AND a.created_at <= $as_of AND (v IS NULL OR v.at < a.created_at))
     OR (v IS NULL AND a IS NULL AND EXISTS {
           MATCH (:AssetTrail {id: candidate})-[w:LINEAGE_WAS]-()
           WHERE CASE WHEN w.run_since_ms <= $as_of_ms THEN $as_of_ms < w.last_until_ms
                 ELSE size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]) END
         })
  RETURN head(collect({id: candidate,
                       shown: CASE WHEN a.updated_at <= $as_of THEN a
                                   WHEN NOT coalesce(v.deleted, true) THEN v END})) AS found
}
OPTIONAL MATCH (root:AssetTrail {id: found.id})
// The walks are one page, as lineage.traverse's: both feed one aggregation keeping a
// node reached both ways once at its fewer hops (downstream on a tie), and each side
// keeps the nodes after its position ($given.after_down, $given.after_up: [distance,
// hidden, key] or null; at each distance the stand-ins after the readable nodes, among
// themselves in the order $shuffle gives their trails, as lineage.traverse), the first
// $take of them (nearest first) on this page, how many in all (`pending_*`) and the ones
// earlier pages returned (`*_seen`, for this page's edges).
CALL (root) {
  CALL (root) {
    WITH root WHERE root IS NOT NULL AND $downstream
    MATCH p = (root)-[:LINEAGE_WAS*1..{{depth}}]->(n)
    WHERE all(w IN relationships(p) WHERE CASE WHEN w.run_since_ms <= $as_of_ms THEN $as_of_ms < w.last_until_ms
      ELSE size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]) END)
    WITH n, min(length(p)) AS distance
    WHERE n <> root
    RETURN n, 2 * distance AS rank
    UNION ALL
    WITH root WHERE root IS NOT NULL AND $upstream
    MATCH p = (root)<-[:LINEAGE_WAS*1..{{depth}}]-(n)
    WHERE all(w IN relationships(p) WHERE CASE WHEN w.run_since_ms <= $as_of_ms THEN $as_of_ms < w.last_until_ms
      ELSE size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]) END)
    WITH n, min(length(p)) AS distance
    WHERE n <> root
    RETURN n, 2 * distance + 1 AS rank
  }
  WITH n, min(rank) AS rank
  WITH n, rank / 2 AS distance, rank % 2 = 0 AS down
  // `hidden`: lineage.traverse's, from the place the node is shown with below (the live
  // asset's for a trail the migration has not reached), read only for a caller with
  // private domains it may not read ($given.readable: those it may; null: all)
  WITH n, distance, down, CASE WHEN down THEN $given.after_down ELSE $given.after_up END AS after,
       CASE WHEN $given.readable IS NULL THEN null
            WHEN n.shown_since IS NULL
              THEN head(COLLECT { MATCH (live:Asset {id: n.id}) RETURN [live.domain, live.domain_private] })
            ELSE [n.domain, n.domain_private] END AS place
  WITH n, distance, down, after,
       $given.readable IS NOT NULL AND coalesce(place[1], false) AND place[0] IS NOT NULL
       AND NOT place[0] IN $given.readable AS hidden
  WITH n, distance, down, hidden, after,
       CASE WHEN hidden THEN ((id(n) * $shuffle[0] % $shuffle[3]) * $shuffle[4] % $shuffle[3] + id(n) * $shuffle[1] + $shuffle[2]) % $shuffle[3] ELSE n.id END AS key
  WITH n, distance, down, hidden, key,
       after IS NULL OR distance > after[0]
       OR (distance = after[0] AND (hidden > after[1] OR (hidden = after[1] AND key > after[2]))) AS pending
  ORDER BY distance, hidden, key
  WITH collect(CASE WHEN pending THEN [n, distance, down, key] END) AS rows,
       collect(CASE WHEN NOT pending AND down THEN n END) AS down_seen,
       collect(CASE WHEN NOT pending AND NOT down THEN n END) AS up_seen
  WITH rows[..$take] AS page, rows, down_seen, up_seen
  RETURN [r IN page WHERE r[2] | r[0]] AS down_nodes, [r IN page WHERE r[2] | r[1]] AS down_distances,
         [r IN page WHERE NOT r[2] | r[0]] AS up_nodes, [r IN page WHERE NOT r[2] | r[1]] AS up_distances,
         [r IN page WHERE r[2] | r[3]] + [r IN page WHERE NOT r[2] | r[3]] AS page_keys,
         size([r IN rows WHERE r[2]]) AS pending_down, size([r IN rows WHERE NOT r[2]]) AS pending_up,
         down_seen, up_seen
}
CALL (down_nodes, down_distances, up_nodes, up_distances, page_keys) {
  WITH down_nodes + up_nodes AS reached, down_distances + up_distances AS distances,
       size(down_nodes) AS downs
  // no order kept here: the caller orders nodes and edges (lineage_pages.assemble_page)
  UNWIND range(0, size(reached) - 1) AS i
  WITH reached[i] AS n, distances[i] AS distance, page_keys[i] AS key,
       CASE WHEN i < downs THEN 'downstream' ELSE 'upstream' END AS direction
  WITH n, distance, direction, key,
       CASE WHEN n.shown_since <= $as_of THEN n
            ELSE head([x IN COLLECT { MATCH (a:Asset {id: n.id}) WHERE a.updated_at <= $as_of RETURN a }
                             + COLLECT {
                                 MATCH (v:AssetVersion {asset_id: n.id})
                                 WHERE v.at <= $as_of
                                 RETURN v ORDER BY v.version DESC LIMIT 1
                               }
                       WHERE NOT coalesce(x.deleted, false)]) END AS shown
  WITH direction, {id: n.id, name: coalesce(shown.name, n.id), type: coalesce(shown.type, 'unknown'),
                   platform: shown.platform, tags: coalesce(shown.tags, []),
                   placeholder: coalesce(shown.placeholder, shown IS NULL),
                   distance: distance, direction: direction,
                   // the live asset's domain: who may read it is decided as of now. The
                   // trail keeps the live asset's (assets.record_versions); one the
                   // lineage_history_trails migration has not reached yet has no `shown_since`
                   domain: CASE WHEN n.shown_since IS NULL
                                THEN head(COLLECT { MATCH (live:Asset {id: n.id}) RETURN live.domain })
                                ELSE n.domain END,
                   private: coalesce(CASE WHEN n.shown_since IS NULL
                                          THEN head(COLLECT { MATCH (live:Asset {id: n.id})
                                                              RETURN live.domain_private })
                                          ELSE n.domain_private END, false),
                   standin_key: key} AS node
  RETURN collect(CASE WHEN direction = 'downstream' THEN node END) AS down,
         collect(CASE WHEN direction = 'upstream' THEN node END) AS up
}
CALL (root, down_nodes, down_seen) {
  WITH root, down_nodes, down_seen WHERE root IS NOT NULL AND $downstream
  WITH down_nodes, [root] + down_seen + down_nodes AS kept
  UNWIND down_nodes AS x
  MATCH (x)-[w:LINEAGE_WAS]-(y)
  WHERE y IN kept
  WITH startNode(w) AS a, endNode(w) AS b,
       CASE WHEN w.last_since_ms <= $as_of_ms AND $as_of_ms < w.last_until_ms THEN [w.last_transformation]
            WHEN w.prev_since_ms <= $as_of_ms AND $as_of_ms < w.prev_until_ms THEN [w.prev_transformation]
            // gone by then: after the last interval, or between the two
            WHEN w.last_since_ms <= $as_of_ms AND w.last_until_ms IS NOT NULL THEN null
            WHEN w.prev_since_ms <= $as_of_ms AND w.prev_until_ms IS NOT NULL
                 AND $as_of_ms < w.last_since_ms
              THEN null
            ELSE head([i IN [size([s IN w.since WHERE s <= $as_of]) - 1]
                       WHERE i >= 0 AND $as_of < w.until[i]
                       | [CASE WHEN w.transformed[i] THEN w.transformation[i] END]]) END AS stood
  WHERE stood IS NOT NULL
  RETURN collect([a.id, b.id, stood[0]]) AS down_edges
}
CALL (root, up_nodes, up_seen) {
  WITH root, up_nodes, up_seen WHERE root IS NOT NULL AND $upstream
  WITH up_nodes, [root] + up_seen + up_nodes AS kept
  UNWIND up_nodes AS x
  MATCH (x)-[w:LINEAGE_WAS]-(y)
  WHERE y IN kept
  WITH startNode(w) AS a, endNode(w) AS b,
       CASE WHEN w.last_since_ms <= $as_of_ms AND $as_of_ms < w.last_until_ms THEN [w.last_transformation]
            WHEN w.prev_since_ms <= $as_of_ms AND $as_of_ms < w.prev_until_ms THEN [w.prev_transformation]
            // gone by then: after the last interval, or between the two
            WHEN w.last_since_ms <= $as_of_ms AND w.last_until_ms IS NOT NULL THEN null
            WHEN w.prev_since_ms <= $as_of_ms AND w.prev_until_ms IS NOT NULL
                 AND $as_of_ms < w.last_since_ms
              THEN null
            ELSE head([i IN [size([s IN w.since WHERE s <= $as_of]) - 1]
                       WHERE i >= 0 AND $as_of < w.until[i]
                       | [CASE WHEN w.transformed[i] THEN w.transformation[i] END]]) END AS stood
  WHERE stood IS NOT NULL
  RETURN collect([a.id, b.id, stood[0]]) AS up_edges
}
WITH authorised, found, down, up, down_edges, up_edges, pending_down, pending_up
RETURN authorised,
       CASE WHEN found IS NULL THEN null ELSE
         {id: found.id, name: coalesce(found.shown.name, found.id),
          type: coalesce(found.shown.type, 'unknown'), platform: found.shown.platform,
          tags: coalesce(found.shown.tags, []),
          placeholder: coalesce(found.shown.placeholder, found.shown IS NULL),
          distance: 0, direction: 'root'} END AS root,
       down, up, down_edges, up_edges, pending_down, pending_up
