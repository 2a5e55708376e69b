// Remove the rules this project made earlier that its new manifest no longer has.
MATCH (r:QualityRule {origin: $origin})
WHERE NOT r.id IN $keep
DETACH DELETE r
RETURN count(*) AS removed
