// Create a rule attached to its asset; no row when the asset does not exist.
MATCH (a:Asset {id: $props.asset_id})
CREATE (r:QualityRule)
SET r = $props
CREATE (r)-[:CHECKS]->(a)
RETURN r {.*} AS rule
