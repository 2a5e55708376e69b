// A page of one policy's open violations ordered by asset id.
// $readable (null: every domain) lists the private domains the caller may read: the
// violations of other private domains' assets are left out, as the assets are.
MATCH (v:Violation {policy_id: $policy_id})
WHERE v.asset_id > $after
  AND ($readable IS NULL OR NOT EXISTS {
    MATCH (a:Asset {id: v.asset_id})
    WHERE a.domain_private AND NOT a.domain IN $readable
  })
RETURN v {.asset_id, .reason, .path, .opened_at} AS violation
ORDER BY v.asset_id
LIMIT $limit
