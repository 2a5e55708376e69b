// Data migration (`lineage_history_trails`): what assets.record_versions and record_edges keep
// for an as_of walk, given to histories written before they were kept: each trail
// node's display fields and `shown_since` (from the live asset, or, for an asset
// gone, from its deletion version), and each edge history's `prev_since` and
// `prev_transformation` (from its arrays). Until it has run, an as_of walk shows such
// a node by seeking the live asset or its version and reads such an edge's
// transformation from its arrays, which answers the same, only slower. One batch: up
// to $batch trails after the id $after and their outgoing histories, answering the
// last id seen (null when done). Idempotent: what has its fields is left alone (a
// trail of an asset gone before versions were kept has none to have).
MATCH (s:AssetTrail)
WHERE s.id > $after
WITH s ORDER BY s.id LIMIT $batch
WITH collect(s) AS trails
CALL (trails) {
  UNWIND trails AS t
  WITH t WHERE t.shown_since IS NULL
  OPTIONAL MATCH (a:Asset {id: t.id})
  CALL (t) {
    OPTIONAL MATCH (v:AssetVersion {asset_id: t.id})
    RETURN v ORDER BY v.version DESC LIMIT 1
  }
  WITH t, CASE WHEN a IS NOT NULL
               THEN a {.name, .type, .platform, .tags, .placeholder, .domain, .domain_private,
                       shown_since: a.updated_at}
               WHEN v.deleted THEN {placeholder: true, shown_since: v.at} END AS shown
  WHERE shown IS NOT NULL
  SET t += shown
  RETURN count(*) AS trails_shown
}
CALL (trails) {
  UNWIND trails AS s
  MATCH (s)-[w:LINEAGE_WAS]->()
  WHERE w.prev_since IS NULL AND size(w.since) > 1
  SET w.prev_since = w.since[-2],
      w.prev_transformation = CASE WHEN w.transformed[-2] THEN w.transformation[-2] END
  RETURN count(*) AS edges
}
RETURN trails_shown + edges AS filled, CASE WHEN size(trails) = $batch THEN trails[-1].id END AS last
