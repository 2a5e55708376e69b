// Data migration (`lineage_history_trails`): what assets.record_versions keeps for an
// as_of walk, given to trails written before it was kept: each trail node's display
// fields and `shown_since` (from the live asset, or, for an asset gone, from its
// deletion version). Until it has run, an as_of walk shows such a node by seeking the
// live asset or its version, which answers the same, only slower. (The edge
// histories' summary is fill_instants's.) One batch: up to $batch trails
// after the id $after, answering the last id seen (null when done). Idempotent: a
// trail that has its fields is left alone (one of an asset gone before versions were
// kept has none to have).
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
  RETURN count(*) AS filled
}
RETURN filled, CASE WHEN size(trails) = $batch THEN trails[-1].id END AS last
