// One step of a policy walk downstream: the lineage children of the frontier.
UNWIND $frontier AS id
MATCH (:Asset {id: id})-[:LINEAGE]->(next:Asset)
RETURN id AS node, next.id AS next
