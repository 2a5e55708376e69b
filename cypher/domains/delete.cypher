// Delete a domain and its grants, with a new rules stamp (its assets are re-evaluated
// next). `deleted` is 0 when there was none.
OPTIONAL MATCH (d:Domain {id: $id})
WITH d, d IS NOT NULL AS found
DETACH DELETE d
WITH found
MERGE (s:DomainRules {id: 'rules'})
SET s.stamp = randomUUID()
RETURN found
