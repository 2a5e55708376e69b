// Every column that holds $tag directly: the seeds of a whole recomputation of the tag
// after its rule changed (a scan of the column nodes; rules change rarely).
MATCH (c:Column)
WHERE $tag IN coalesce(c.tags, [])
RETURN collect(c.key) AS keys
