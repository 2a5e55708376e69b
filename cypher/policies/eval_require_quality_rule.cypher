// require_quality_rule: governed assets with no enabled rule (of the given types).
MATCH (a:Asset)
WHERE NOT coalesce(a.placeholder, false)
  AND ($selector.type IS NULL OR a.type IN $selector.type)
  AND ($selector.platform IS NULL OR a.platform IN $selector.platform)
  AND all(tag IN $selector.tags WHERE tag IN coalesce(a.tags, []))
  AND ($selector.id_prefix IS NULL OR a.id STARTS WITH $selector.id_prefix)
  AND NOT EXISTS {
    MATCH (a)<-[:CHECKS]-(r:QualityRule)
    WHERE coalesce(r.enabled, true) AND (size($types) = 0 OR r.type IN $types)
  }
RETURN a.id AS asset_id,
       CASE WHEN size($types) = 0 THEN 'has no enabled quality rule'
            ELSE 'has no enabled quality rule of type ' + reduce(s = '', t IN $types |
                 s + CASE WHEN s = '' THEN '' ELSE ' or ' END + t)
       END AS reason,
       null AS path
ORDER BY asset_id
