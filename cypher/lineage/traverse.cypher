// A lineage traversal in one statement and one round trip: the root, the assets
// within {{depth}} hops on each asked side (each once, at its fewest-hop distance,
// nearest first, at most $limit per side), and the edges that may join them.
//
// `authorised` re-checks the caller's token (by $token_hash, null when the caller
// was already looked up for this request): still there, not revoked, not expired,
// its user neither deleted nor disabled. Any such token may read, so a process that
// knows the token from an earlier request skips the separate look-up and still
// refuses a token revoked a moment ago through another process. An unauthorised
// caller walks nothing.
//
// Each walk groups `min(length(p))` by end node, which is what lets the planner use
// the pruning breadth-first expand (VarLengthExpand(Pruning,BFS)): cost grows with
// the nodes and edges reached, never with the number of paths, and cycles end.
// Nodes come in the answer's own shape (defaults filled, distance and direction
// set), so the service serialises them as they arrive. Each side walks up to $limit
// nodes besides the root (one more than an answer keeps, which tells the caller it
// was cut) and returns, as [source, target, transformation] sorted by (source,
// target), the edges among the root and that side's first $limit - 1: an answer's
// edges exactly when one side is walked. Neo4j keeps a set for `IN kept`, so the
// filter is linear in the kept nodes' degree. Sorted here, a side costs the service
// one pass to check its order (Neo4j compares some strings by UTF-16 code unit, the
// service by code point; they differ only past U+FFFF).
// The root is the asset with id $id, or the one a merge made $id a former id of.
// Every subquery aggregates without grouping keys, so the answer is always one row.
CALL () {
  OPTIONAL MATCH (t:ApiToken {hash: $token_hash})
  OPTIONAL MATCH (u:User {id: t.user_id})
  RETURN $token_hash IS NULL OR (
    t IS NOT NULL AND t.revoked_at IS NULL AND size(t.scopes) > 0
    AND (t.expires_at IS NULL OR t.expires_at > $now)
    AND (t.user_id IS NULL OR (u IS NOT NULL AND NOT coalesce(u.disabled, false)))
  ) AS authorised
}
OPTIONAL MATCH (direct:Asset {id: $id}) WHERE authorised
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(aliased:Asset) WHERE authorised AND direct IS NULL
WITH authorised, coalesce(direct, aliased) AS root
CALL (root) {
  WITH root WHERE root IS NOT NULL AND $downstream
  MATCH p = (root)-[:LINEAGE*1..{{depth}}]->(n)
  WITH n, min(length(p)) AS distance
  WHERE n <> root
  ORDER BY distance, n.id
  LIMIT $limit
  RETURN collect(n {.id, name: coalesce(n.name, n.id), type: coalesce(n.type, 'unknown'),
                    .platform, tags: coalesce(n.tags, []), placeholder: coalesce(n.placeholder, false),
                    distance: distance, direction: 'downstream'}) AS down,
         collect(n) AS down_nodes
}
CALL (root) {
  WITH root WHERE root IS NOT NULL AND $upstream
  MATCH p = (root)<-[:LINEAGE*1..{{depth}}]-(n)
  WITH n, min(length(p)) AS distance
  WHERE n <> root
  ORDER BY distance, n.id
  LIMIT $limit
  RETURN collect(n {.id, name: coalesce(n.name, n.id), type: coalesce(n.type, 'unknown'),
                    .platform, tags: coalesce(n.tags, []), placeholder: coalesce(n.placeholder, false),
                    distance: distance, direction: 'upstream'}) AS up,
         collect(n) AS up_nodes
}
CALL (root, down_nodes) {
  WITH root, down_nodes WHERE root IS NOT NULL AND $downstream
  WITH [root] + down_nodes[..$limit - 1] AS kept
  UNWIND kept AS a
  MATCH (a)-[e:LINEAGE]->(b)
  WHERE b IN kept
  WITH a.id AS source, b.id AS target, e.transformation AS transformation
  ORDER BY source, target
  RETURN collect([source, target, transformation]) AS down_edges
}
CALL (root, up_nodes) {
  WITH root, up_nodes WHERE root IS NOT NULL AND $upstream
  WITH [root] + up_nodes[..$limit - 1] AS kept
  UNWIND kept AS b
  MATCH (a)-[e:LINEAGE]->(b)
  WHERE a IN kept
  WITH a.id AS source, b.id AS target, e.transformation AS transformation
  ORDER BY source, target
  RETURN collect([source, target, transformation]) AS up_edges
}
RETURN authorised,
       root {.id, name: coalesce(root.name, root.id), type: coalesce(root.type, 'unknown'),
             .platform, tags: coalesce(root.tags, []), placeholder: coalesce(root.placeholder, false),
             distance: 0, direction: 'root'} AS root,
       down,
       up,
       down_edges,
       up_edges
