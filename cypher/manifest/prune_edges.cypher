// Withdraw this project's assertion from edges its new manifest no longer has.
// An edge that another writer still asserts keeps living; one left with no
// origin at all leaves the graph (and only those count as removed). Pairs are
// passed as 'source' + '\n' + 'target' (ids contain no whitespace).
MATCH (s:Asset)-[r:LINEAGE]->(t:Asset)
WHERE $origin IN r.origins AND NOT (s.id + '\n' + t.id) IN $keep
WITH r, [o IN r.origins WHERE o <> $origin] AS rest
FOREACH (_ IN CASE WHEN size(rest) = 0 THEN [1] ELSE [] END | DELETE r)
FOREACH (_ IN CASE WHEN size(rest) > 0 THEN [1] ELSE [] END | SET r.origins = rest)
RETURN sum(CASE WHEN size(rest) = 0 THEN 1 ELSE 0 END) AS removed
