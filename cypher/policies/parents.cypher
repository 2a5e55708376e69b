// One step of a policy walk upstream: each frontier asset with its lineage parents
// (one row per frontier asset, so the driver handles few records).
UNWIND $frontier AS id
MATCH (next:Asset)-[:LINEAGE]->(:Asset {id: id})
RETURN id AS node, collect(next.id) AS next
