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
// then, and the one holding it is the last that began. Counting reads each array once
// per relationship (an index loop reads the property at every step: at ten intervals,
// four times the db hits of today's walk). That test is a relationship predicate on the
// walk, and each walk still groups `min(length(p))` by end node, so the planner keeps
// the pruning breadth-first expand: EXPLAIN and PROFILE show
// VarLengthExpand(Pruning,BFS,All) with the predicate inlined (Neo4j 5.26), cost
// growing with the edges reached, not the paths (a test guards the plan). A node is
// shown as the live asset when that has not changed since $as_of (`updated_at`), else
// as its newest version at $as_of, else by its id alone as a placeholder (it was one
// then: a placeholder records no version; or it was deleted before versions were
// kept); the edges keep the transformation in effect at $as_of.
CALL () {
  OPTIONAL MATCH (t:ApiToken {hash: $token_hash})
  OPTIONAL MATCH (u:User {id: t.user_id})
  RETURN $token_hash IS NULL OR (
    t IS NOT NULL AND t.revoked_at IS NULL AND size(t.scopes) > 0
    AND (t.expires_at IS NULL OR t.expires_at > $now)
    AND (t.user_id IS NULL OR (u IS NOT NULL AND NOT coalesce(u.disabled, false)))
  ) AS authorised
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
           WHERE size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of])
         })
  RETURN head(collect({id: candidate,
                       shown: CASE WHEN a.updated_at <= $as_of THEN a
                                   WHEN NOT coalesce(v.deleted, true) THEN v END})) AS found
}
OPTIONAL MATCH (root:AssetTrail {id: found.id})
CALL (root) {
  WITH root WHERE root IS NOT NULL AND $downstream
  MATCH p = (root)-[:LINEAGE_WAS*1..{{depth}}]->(n)
  WHERE all(w IN relationships(p) WHERE
    size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]))
  WITH n, min(length(p)) AS distance
  WHERE n <> root
  ORDER BY distance, n.id
  LIMIT $limit
  RETURN collect(n) AS down_nodes, collect(distance) AS down_distances
}
CALL (root) {
  WITH root WHERE root IS NOT NULL AND $upstream
  MATCH p = (root)<-[:LINEAGE_WAS*1..{{depth}}]-(n)
  WHERE all(w IN relationships(p) WHERE
    size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of]))
  WITH n, min(length(p)) AS distance
  WHERE n <> root
  ORDER BY distance, n.id
  LIMIT $limit
  RETURN collect(n) AS up_nodes, collect(distance) AS up_distances
}
CALL (down_nodes, down_distances, up_nodes, up_distances) {
  WITH down_nodes + up_nodes AS reached, down_distances + up_distances AS distances,
       size(down_nodes) AS downs
  UNWIND range(0, size(reached) - 1) AS i
  WITH i, reached[i] AS n, distances[i] AS distance,
       CASE WHEN i < downs THEN 'downstream' ELSE 'upstream' END AS direction
  OPTIONAL MATCH (a:Asset {id: n.id})
  WITH i, n, distance, direction,
       CASE WHEN a.updated_at <= $as_of THEN a
            ELSE head(COLLECT {
                   MATCH (v:AssetVersion {asset_id: n.id})
                   WHERE v.at <= $as_of
                   RETURN v ORDER BY v.version DESC LIMIT 1
                 }) END AS shown
  WITH i, n, distance, direction, CASE WHEN shown.deleted THEN null ELSE shown END AS shown
  ORDER BY i
  WITH direction, {id: n.id, name: coalesce(shown.name, n.id), type: coalesce(shown.type, 'unknown'),
                   platform: shown.platform, tags: coalesce(shown.tags, []),
                   placeholder: coalesce(shown.placeholder, shown IS NULL),
                   distance: distance, direction: direction} AS node
  RETURN [x IN collect(node) WHERE x.direction = 'downstream'] AS down,
         [x IN collect(node) WHERE x.direction = 'upstream'] AS up
}
CALL (root, down_nodes) {
  WITH root, down_nodes WHERE root IS NOT NULL AND $downstream
  WITH [root] + down_nodes[..$limit - 1] AS kept
  UNWIND kept AS a
  MATCH (a)-[w:LINEAGE_WAS]->(b)
  WHERE b IN kept
  WITH a, b, w, size([s IN w.since WHERE s <= $as_of]) - 1 AS held
  WHERE held >= 0 AND $as_of < w.until[held]
  WITH a.id AS source, b.id AS target,
       CASE WHEN w.transformed[held] THEN w.transformation[held] END AS transformation
  ORDER BY source, target
  RETURN collect([source, target, transformation]) AS down_edges
}
CALL (root, up_nodes) {
  WITH root, up_nodes WHERE root IS NOT NULL AND $upstream
  WITH [root] + up_nodes[..$limit - 1] AS kept
  UNWIND kept AS b
  MATCH (a)-[w:LINEAGE_WAS]->(b)
  WHERE a IN kept
  WITH a, b, w, size([s IN w.since WHERE s <= $as_of]) - 1 AS held
  WHERE held >= 0 AND $as_of < w.until[held]
  WITH a.id AS source, b.id AS target,
       CASE WHEN w.transformed[held] THEN w.transformation[held] END AS transformation
  ORDER BY source, target
  RETURN collect([source, target, transformation]) AS up_edges
}
WITH authorised, found, down, up, down_edges, up_edges
RETURN authorised,
       CASE WHEN found IS NULL THEN null ELSE
         {id: found.id, name: coalesce(found.shown.name, found.id),
          type: coalesce(found.shown.type, 'unknown'), platform: found.shown.platform,
          tags: coalesce(found.shown.tags, []),
          placeholder: coalesce(found.shown.placeholder, found.shown IS NULL),
          distance: 0, direction: 'root'} END AS root,
       down, up, down_edges, up_edges
