// require_owner: governed assets without an owner.
MATCH (a:Asset)
WHERE NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
  AND size(coalesce(a.owners, [])) = 0
RETURN a.id AS asset_id, 'has no owner' AS reason, null AS path
ORDER BY asset_id
