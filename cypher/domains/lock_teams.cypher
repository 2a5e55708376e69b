// The teams a domain is about to name (owner and grantees) that exist, write-locked
// until commit so that none is deleted while the domain comes to refer to it.
MATCH (t:Team)
WHERE t.id IN $teams
SET t._lock = true
REMOVE t._lock
RETURN collect(t.id) AS found
