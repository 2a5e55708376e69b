// A page of quality rules ordered by id; absent filters are null.
MATCH (r:QualityRule)
WHERE r.id > $after
  AND ($asset_id IS NULL OR r.asset_id = $asset_id)
  AND ($status IS NULL OR r.status = $status)
  AND ($type IS NULL OR r.type = $type)
RETURN r {.*} AS rule
ORDER BY r.id
LIMIT $limit
