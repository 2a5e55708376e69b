// One quality rule by id.
MATCH (r:QualityRule {id: $id})
RETURN r {.*} AS rule
