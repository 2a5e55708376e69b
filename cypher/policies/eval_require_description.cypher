// require_description: governed assets whose description is missing or blank.
MATCH (a:Asset)
WHERE NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
  AND trim(coalesce(a.description, '')) = ''
RETURN a.id AS asset_id, 'has no description' AS reason, null AS path
ORDER BY asset_id
