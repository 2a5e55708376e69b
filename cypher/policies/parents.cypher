// One step of a policy walk upstream: the lineage parents of the frontier.
UNWIND $frontier AS id
MATCH (next:Asset)-[:LINEAGE]->(:Asset {id: id})
RETURN id AS node, next.id AS next
