// A page of one policy's open violations ordered by asset id.
MATCH (v:Violation {policy_id: $policy_id})
WHERE v.asset_id > $after
RETURN v {.asset_id, .reason, .path, .opened_at} AS violation
ORDER BY v.asset_id
LIMIT $limit
