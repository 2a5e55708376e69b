// One step of a policy walk downstream: each frontier asset with its lineage
// children (one row per frontier asset, so the driver handles few records).
UNWIND $frontier AS id
MATCH (:Asset {id: id})-[:LINEAGE]->(next:Asset)
RETURN id AS node, collect(next.id) AS next
