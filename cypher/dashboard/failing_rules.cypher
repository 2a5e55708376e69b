// Quality rules whose last result failed or errored, most recently run first.
MATCH (r:QualityRule)
WHERE r.status IN ['failing', 'error']
RETURN r {.*} AS rule
ORDER BY r.updated_at DESC, r.id
LIMIT $limit
