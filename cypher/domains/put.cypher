// Create a domain or replace it: its fields, its grants (each a GRANTED edge from a
// team, the owner's marked `owner`) and a new rules stamp, which tells every process
// that its cached rules are stale. `created` says it is new.
MERGE (d:Domain {id: $id})
  ON CREATE SET d.created_at = $now, d._new = true
SET d.display_name = $display_name, d.description = $description, d.private = $private,
    d.owner_team = $owner_team, d.rules_json = $rules_json, d.updated_at = $now
WITH d, coalesce(d._new, false) AS created
REMOVE d._new
WITH d, created
CALL (d) {
  OPTIONAL MATCH (:Team)-[g:GRANTED]->(d)
  DELETE g
}
CALL (d) {
  UNWIND $grants AS grant
  MATCH (t:Team {id: grant.team})
  CREATE (t)-[:GRANTED {role: grant.role, owner: grant.owner}]->(d)
}
MERGE (s:DomainRules {id: 'rules'})
SET s.stamp = randomUUID()
RETURN created
