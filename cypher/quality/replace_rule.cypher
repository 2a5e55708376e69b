// Replace a locked rule's properties and point it at its (existing) asset; no row
// when that asset does not exist, and the caller then rolls back. The far end of the
// stale CHECKS stays unlabelled so the plan expands from the rule (see
// manifest.write_rules).
MATCH (r:QualityRule {id: $id})
MATCH (a:Asset {id: $props.asset_id})
SET r = $props
WITH r, a
OPTIONAL MATCH (r)-[old:CHECKS]->(other)
WHERE other <> a
DELETE old
WITH DISTINCT r, a
MERGE (r)-[:CHECKS]->(a)
RETURN r {.*} AS rule
