// Delete a rule with its result history.
MATCH (r:QualityRule {id: $id})
OPTIONAL MATCH (r)<-[:RESULT_OF]-(res:QualityResult)
DETACH DELETE res
WITH DISTINCT r
DETACH DELETE r
RETURN count(*) AS deleted
