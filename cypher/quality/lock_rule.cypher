// An existing rule with its write lock held until commit (read-modify-write, and
// so that two results for one rule decide their alert one after the other).
MATCH (r:QualityRule {id: $id})
SET r._lock = true
REMOVE r._lock
RETURN r {.*} AS rule
