// A page of an asset's versions, newest first, before the cursor's version number
// (`$before` is 0 on the first page): one index seek on the asset's id, then its
// versions sorted (retention keeps them few).
MATCH (v:AssetVersion {asset_id: $id})
WHERE $before = 0 OR v.version < $before
RETURN v {.*} AS version
ORDER BY v.version DESC
LIMIT $limit
