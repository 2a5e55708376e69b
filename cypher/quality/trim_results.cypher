// Keep each rule's newest `$keep` results and delete the older ones.
UNWIND $rule_ids AS rule_id
MATCH (r:QualityRule {id: rule_id})<-[:RESULT_OF]-(res:QualityResult)
WITH r, res
ORDER BY res.run_at DESC, res.id DESC
WITH r, collect(res) AS history
UNWIND history[$keep..] AS old
DETACH DELETE old
RETURN count(*) AS deleted
