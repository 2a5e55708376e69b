// Of the given assets, those the policy's selector governs (placeholders never).
UNWIND $ids AS id
MATCH (a:Asset {id: id})
WHERE NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
RETURN a.id AS id
