// Remove one edge, whoever asserted it; the endpoints stay.
MATCH (:Asset {id: $source})-[r:LINEAGE]->(:Asset {id: $target})
DELETE r
RETURN count(*) AS deleted
