// Version 1 for assets that have none (written before versions were kept; a bare
// placeholder needs none, see record_versions), by the actor `system` at the asset's
// creation time: one page of assets in id order after `$after` per call, so a large
// catalogue is done in bounded transactions and a repeat finds nothing to do. Returns
// the page's last id (null: no more assets). Runs in the background after start-up.
MATCH (a:Asset)
WHERE a.id > $after
WITH a
ORDER BY a.id
LIMIT $limit
WITH collect(a) AS page
CALL (page) {
  UNWIND page AS a
  WITH a
  WHERE NOT (coalesce(a.placeholder, false) AND a.columns_json IS NULL)
    AND NOT EXISTS { MATCH (:AssetVersion {asset_id: a.id}) }
  // It runs beside the writers: the asset is locked, then looked at again, so a write
  // that versioned it meanwhile is seen (and one that follows finds version 1).
  SET a._lock = true
  REMOVE a._lock
  WITH a
  WHERE NOT (coalesce(a.placeholder, false) AND a.columns_json IS NULL)
    AND NOT EXISTS { MATCH (:AssetVersion {asset_id: a.id}) }
  CREATE (v:AssetVersion)
  SET v = a {.*,
             asset_id: a.id,
             version: 1,
             at: coalesce(a.created_at, a.updated_at, $now),
             actor: 'system',
             deleted: false,
             id: null, created_at: null, updated_at: null}
  RETURN count(v) AS written
}
RETURN written, CASE WHEN size(page) = 0 THEN null ELSE page[size(page) - 1].id END AS last
