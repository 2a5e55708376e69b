// Quality rules whose last result failed or errored, most recently run first.
// $readable (null: every domain) lists the private domains the viewer may read: the
// rules of other private domains' assets are left out, as the assets are.
MATCH (r:QualityRule)
WHERE r.status IN ['failing', 'error']
  AND ($readable IS NULL OR NOT EXISTS {
    MATCH (a:Asset {id: r.asset_id})
    WHERE a.domain_private AND NOT a.domain IN $readable
  })
RETURN r {.*} AS rule
ORDER BY r.updated_at DESC, r.id
LIMIT $limit
