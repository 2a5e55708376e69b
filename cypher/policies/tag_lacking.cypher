// Of the reached assets, those the policy governs that lack the tag.
UNWIND $ids AS id
MATCH (a:Asset {id: id})
WHERE NOT $tag IN coalesce(a.tags, [])
  AND NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
RETURN a.id AS id
