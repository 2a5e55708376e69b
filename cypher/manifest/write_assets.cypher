// Create or replace a batch of assets with their computed properties.
UNWIND $rows AS row
MERGE (a:Asset {id: row.id})
SET a = row.props
RETURN count(*) AS written
