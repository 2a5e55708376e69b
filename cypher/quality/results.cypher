// A page of one rule's results, newest first; `$after` is [run_at, id] of the last
// result of the previous page.
MATCH (:QualityRule {id: $rule_id})<-[:RESULT_OF]-(res:QualityResult)
WHERE res.run_at < $after[0] OR (res.run_at = $after[0] AND res.id < $after[1])
RETURN res {.*} AS result
ORDER BY res.run_at DESC, res.id DESC
LIMIT $limit
