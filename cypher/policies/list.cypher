// A page of policies ordered by id; absent filters are null.
MATCH (p:Policy)
WHERE p.id > $after
  AND ($kind IS NULL OR p.kind = $kind)
  AND ($enabled IS NULL OR p.enabled = $enabled)
RETURN p {.*} AS policy
ORDER BY p.id
LIMIT $limit
