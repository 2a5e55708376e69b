// Delete an asset and every relationship it has (its lineage edges).
MATCH (a:Asset {id: $id})
DETACH DELETE a
RETURN count(*) AS deleted
