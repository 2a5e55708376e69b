// Delete a domain and its grants, with a new rules stamp (its assets are re-evaluated
// next). `found` is false when there was none; `private` says whether it was (its
// event is then shown only to those who held a role in it).
OPTIONAL MATCH (d:Domain {id: $id})
WITH d, d IS NOT NULL AS found, coalesce(d.private, false) AS private
DETACH DELETE d
WITH found, private
MERGE (s:DomainRules {id: 'rules'})
SET s.stamp = randomUUID()
RETURN found, private
