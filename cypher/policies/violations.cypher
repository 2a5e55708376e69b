// A page of one policy's open violations ordered by asset id.
// $readable (null: every domain) lists the private domains the caller may read: the
// violations of other private domains' assets are left out, as the assets are.
// `hidden` pairs each asset of the path in a private domain with that domain: the
// caller's view shows those it may not read as stand-ins (`finding_privacy`).
MATCH (v:Violation {policy_id: $policy_id})
WHERE v.asset_id > $after
  AND ($readable IS NULL OR NOT EXISTS {
    MATCH (a:Asset {id: v.asset_id})
    WHERE a.domain_private AND NOT a.domain IN $readable
  })
RETURN v {.asset_id, .reason, .path, .path_assets, .far_end, .opened_at} AS violation,
       COLLECT { UNWIND coalesce(v.path_assets, v.path, []) AS id
                 MATCH (a:Asset {id: id}) WHERE a.domain_private
                 RETURN DISTINCT [a.id, a.domain] } AS hidden
ORDER BY v.asset_id
LIMIT $limit
