// The assets a restricted_flow policy's `to` selector names.
MATCH (t:Asset)
WHERE ($to.type IS NULL OR t.type IN $to.type)
  AND ($to.platform IS NULL OR t.platform IN $to.platform)
  AND all(tag IN $to.tags WHERE tag IN coalesce(t.tags, []))
  AND ($to.id_prefix IS NULL OR t.id STARTS WITH $to.id_prefix)
RETURN t.id AS id
