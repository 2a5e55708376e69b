// The quality rules a manifest names that exist already.
UNWIND $ids AS id
MATCH (r:QualityRule {id: id})
RETURN r {.*} AS rule
