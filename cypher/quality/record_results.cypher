// Append results to their (locked) rules' histories and set each rule's state as
// the caller decided it; rows are {rule_id, result, rule}. A result only moves
// the rule's state when the caller says it is the newest (`rule` is then set).
UNWIND $rows AS row
MATCH (r:QualityRule {id: row.rule_id})
MERGE (res:QualityResult {key: row.result.key})
SET res = row.result
CREATE (res)-[:RESULT_OF]->(r)
FOREACH (_ IN CASE WHEN row.rule IS NULL THEN [] ELSE [1] END |
  SET r += row.rule)
RETURN count(res) AS recorded
