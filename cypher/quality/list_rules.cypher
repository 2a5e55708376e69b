// A page of quality rules ordered by id; absent filters are null.
// $readable (null: every domain) lists the private domains the caller may read: the
// rules of other private domains' assets are left out, as the assets are.
MATCH (r:QualityRule)
WHERE r.id > $after
  AND ($asset_id IS NULL OR r.asset_id = $asset_id)
  AND ($status IS NULL OR r.status = $status)
  AND ($type IS NULL OR r.type = $type)
  AND ($readable IS NULL OR NOT EXISTS {
    MATCH (a:Asset {id: r.asset_id})
    WHERE a.domain_private AND NOT a.domain IN $readable
  })
RETURN r {.*} AS rule
ORDER BY r.id
LIMIT $limit
