// Create or replace a batch of quality rules and attach each to its asset.
UNWIND $rows AS row
MERGE (r:QualityRule {id: row.id})
SET r = row.props
WITH r, row
OPTIONAL MATCH (r)-[old:CHECKS]->(other:Asset)
WHERE other.id <> row.props.asset_id
DELETE old
WITH DISTINCT r, row
MATCH (a:Asset {id: row.props.asset_id})
MERGE (r)-[:CHECKS]->(a)
RETURN count(*) AS written
