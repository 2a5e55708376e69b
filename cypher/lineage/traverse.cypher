// One page of a lineage traversal in one statement and one round trip: the root (on
// the first page), the next $take shown assets within {{depth}} hops after each side's
// cursor position, counts of what is left and of what the filters hid, and the edges
// this page adds.
//
// `authorised` re-checks the caller's token (by $given.token_hash, null when the caller
// was already looked up for this request): still there, not revoked, not expired, its
// user neither deleted nor disabled. Any such token may read, so a process that knows
// the token from an earlier request skips the separate look-up and still refuses a token
// revoked a moment ago through another process. An unauthorised caller walks nothing.
// `authorised` is null (and nothing is walked either) when the token is valid but its
// user's global role or grants are no longer $given.access, those the process read with
// it (null: nothing to compare): the service then looks the token up again and serves
// the request once more, so a changed grant counts at once.
//
// Each walk groups `min(length(p))` by end node, which is what lets the planner use the
// pruning breadth-first expand (VarLengthExpand(Pruning,BFS)): cost grows with the nodes
// and edges reached, never with the number of paths, and cycles end. Both walks feed one
// aggregation that keeps a node reached both ways once, at its fewer hops (downstream on
// a tie: rank = 2 * distance, + 1 upstream). Every page walks the whole neighbourhood
// and filters `(distance, hidden, key) > ` its side's position ($given.after_down,
// $given.after_up: [distance, hidden, key] or null) after the aggregation, so page 20
// costs what page 1 does, and the counts ($take nodes of the pending ones are returned;
// the service subtracts) come from the same rows. The rows are sorted before they are
// collected and the page is a slice: a Top over the unwound list would hold the whole
// list in each kept row (500 rows of a 10,000-node list pass the 512 MiB a transaction
// may use).
//
// Filters ($given.types, $given.platforms, $given.tags, $given.owners: null or a list;
// any of a list, all of the given lists) decide which walked nodes are shown; hidden
// ones still extend the walk and are only counted. With filters given, an asset of a
// private domain outside $given.readable (the private domains the caller may read; null:
// all) is never shown, whether it matches or not: that would tell of an asset the caller
// may not read (it is walked through and counted as hidden, as one the filters hid).
// `hidden` is that test alone: an asset of a private domain outside $given.readable,
// which the service shows as a stand-in (`service.domain.redaction.unreadable` decides
// the same for the same caller). At each distance the stand-ins come after the readable
// nodes: in (distance, id) order where a stand-in sat among the readable nodes would
// tell how its hidden id sorts against theirs; it reads `domain` only for a private
// asset, and nothing when nothing is hidden from the caller (a CASE is evaluated lazily,
// an AND need not be). A readable node's `key` is its id; a stand-in's is its internal
// node id under the walk's keyed permutation, (id * multiplier + offset) mod a prime,
// drawn by the service from its secret for this walk ($shuffle: the multiplier's high
// and low halves, the offset, the prime, and 2^20, the low half's bound; the halves keep
// every product within 64 bits). `id` is deprecated in Neo4j 5 but is what a node
// carries at no property read. So the stand-ins' order among themselves tells nothing of
// their ids either; each node returns its key as `standin_key` (a readable node's is its
// id). Edges are direct LINEAGE edges on one side (or touching the root) between a node
// of this page and a shown node of this or an earlier page (`seen`), so across pages
// each comes once; an edge between two nodes of this page comes twice and the service
// folds it. Neo4j keeps a set for `IN kept`, so that is linear in the page's degree.
// Each node carries its `domain` and whether that is `private`: the service redacts what
// the caller may not read (`service.domain.redaction`), naming the team that owns each
// private domain of the page (`domain_teams`: [domain id, team] pairs). The root is the
// asset with id $id, or the one a merge made $id a former id of. Every subquery
// aggregates without grouping keys, so the answer is always one row.
//
// The inputs that may be absent (the token and access to re-check, each side's position,
// the filters, $given.readable) are the fields of one map, $given: Neo4j keeps a plan
// per statement and parameter types, and null and a list are two types, so as separate
// parameters they made a plan of this statement (about a second to compile) for each
// combination.
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
OPTIONAL MATCH (direct:Asset {id: $id}) WHERE authorised
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(aliased:Asset) WHERE authorised AND direct IS NULL
WITH authorised, coalesce(direct, aliased) AS root
CALL (root) {
  CALL (root) {
    WITH root WHERE root IS NOT NULL AND $downstream
    MATCH p = (root)-[:LINEAGE*1..{{depth}}]->(n)
    WITH n, min(length(p)) AS distance
    WHERE n <> root
    RETURN n, 2 * distance AS rank
    UNION ALL
    WITH root WHERE root IS NOT NULL AND $upstream
    MATCH p = (root)<-[:LINEAGE*1..{{depth}}]-(n)
    WITH n, min(length(p)) AS distance
    WHERE n <> root
    RETURN n, 2 * distance + 1 AS rank
  }
  WITH n, min(rank) AS rank
  WITH n, rank / 2 AS distance, CASE rank % 2 WHEN 0 THEN 'downstream' ELSE 'upstream' END AS side
  WITH n, distance, side,
       CASE WHEN $given.readable IS NULL THEN false
            WHEN coalesce(n.domain_private, false) THEN n.domain IS NOT NULL AND NOT n.domain IN $given.readable
            ELSE false END AS hidden
  WITH n, distance, side, hidden,
       ($given.types IS NULL OR coalesce(n.type, 'unknown') IN $given.types)
       AND ($given.platforms IS NULL OR n.platform IN $given.platforms)
       AND ($given.tags IS NULL OR any(tag IN coalesce(n.tags, []) WHERE tag IN $given.tags))
       AND ($given.owners IS NULL OR any(owner IN coalesce(n.owners, []) WHERE owner IN $given.owners))
       AND (NOT hidden OR ($given.types IS NULL AND $given.platforms IS NULL AND $given.tags IS NULL AND $given.owners IS NULL)) AS shown,
       CASE side WHEN 'downstream' THEN $given.after_down ELSE $given.after_up END AS after,
       CASE WHEN hidden THEN ((id(n) * $shuffle[0] % $shuffle[3]) * $shuffle[4] % $shuffle[3] + id(n) * $shuffle[1] + $shuffle[2]) % $shuffle[3] ELSE n.id END AS key
  WITH n, distance, side, shown, hidden, key,
       after IS NULL OR distance > after[0]
       OR (distance = after[0] AND (hidden > after[1] OR (hidden = after[1] AND key > after[2]))) AS pending
  ORDER BY distance, hidden, key
  RETURN collect(CASE WHEN shown AND pending THEN {n: n, distance: distance, side: side, key: key} END) AS pending,
         collect(CASE WHEN shown AND NOT pending AND side = 'downstream' THEN n END) AS seen_down,
         collect(CASE WHEN shown AND NOT pending AND side = 'upstream' THEN n END) AS seen_up,
         count(CASE WHEN NOT shown AND side = 'downstream' THEN 1 END) AS hidden_down,
         count(CASE WHEN NOT shown AND side = 'upstream' THEN 1 END) AS hidden_up
}
WITH root, authorised, pending, pending[..$take] AS page, seen_down, seen_up, hidden_down, hidden_up
CALL (root, page, seen_down) {
  WITH root, [p IN page WHERE p.side = 'downstream' | p.n] AS fresh, seen_down
  WITH fresh, [root] + seen_down + fresh AS kept
  UNWIND fresh AS a
  MATCH (a)-[e:LINEAGE]-(b)
  WHERE b IN kept
  RETURN collect([startNode(e).id, endNode(e).id, e.transformation]) AS down_edges
}
CALL (root, page, seen_up) {
  WITH root, [p IN page WHERE p.side = 'upstream' | p.n] AS fresh, seen_up
  WITH fresh, [root] + seen_up + fresh AS kept
  UNWIND fresh AS a
  MATCH (a)-[e:LINEAGE]-(b)
  WHERE b IN kept
  RETURN collect([startNode(e).id, endNode(e).id, e.transformation]) AS up_edges
}
RETURN authorised,
       root {.id, name: coalesce(root.name, root.id), type: coalesce(root.type, 'unknown'),
             .platform, tags: coalesce(root.tags, []), placeholder: coalesce(root.placeholder, false),
             distance: 0, direction: 'root', .domain, private: coalesce(root.domain_private, false)} AS root,
       [p IN page | {id: p.n.id, name: coalesce(p.n.name, p.n.id), type: coalesce(p.n.type, 'unknown'),
                     platform: p.n.platform, tags: coalesce(p.n.tags, []),
                     placeholder: coalesce(p.n.placeholder, false),
                     distance: p.distance, direction: p.side,
                     domain: p.n.domain, private: coalesce(p.n.domain_private, false),
                     standin_key: p.key}] AS nodes,
       size([p IN pending WHERE p.side = 'downstream']) AS pending_down,
       size([p IN pending WHERE p.side = 'upstream']) AS pending_up,
       hidden_down,
       hidden_up,
       down_edges + up_edges AS edges,
       COLLECT { UNWIND page AS p WITH p.n AS n WHERE n.domain_private
                 WITH DISTINCT n.domain AS d MATCH (x:Domain {id: d}) RETURN [d, x.owner_team] } AS domain_teams
