// Open policy violations, newest first, with their policy's name and severity;
// one asset's only when `$asset_id` is given.
// $readable (null: every domain) lists the private domains the viewer may read: the
// violations of other private domains' assets are left out, as the assets are.
// `hidden` pairs each asset of the path in a private domain with that domain: the
// viewer's page shows those it may not read as stand-ins (`finding_privacy`).
MATCH (v:Violation)
WHERE ($asset_id IS NULL OR v.asset_id = $asset_id)
  AND ($readable IS NULL OR NOT EXISTS {
    MATCH (a:Asset {id: v.asset_id})
    WHERE a.domain_private AND NOT a.domain IN $readable
  })
OPTIONAL MATCH (p:Policy {id: v.policy_id})
RETURN v {.policy_id, .asset_id, .reason, .path, .path_assets, .far_end, .opened_at}
         AS violation,
       p.name AS policy_name, p.severity AS severity,
       COLLECT { UNWIND coalesce(v.path_assets, v.path, []) AS id
                 MATCH (a:Asset {id: id}) WHERE a.domain_private
                 RETURN DISTINCT [a.id, a.domain] } AS hidden
ORDER BY v.opened_at DESC, v.asset_id
LIMIT $limit
