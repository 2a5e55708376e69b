// Store an evaluation: upsert the open violations, delete the resolved ones, stamp
// the policy. Rows are {asset_id, reason, path, opened_at}.
MATCH (p:Policy {id: $policy_id})
SET p.evaluated_at = $now
WITH p
CALL {
  UNWIND $open AS row
  MERGE (v:Violation {key: $policy_id + '|' + row.asset_id})
  SET v.policy_id = $policy_id, v.asset_id = row.asset_id, v.reason = row.reason,
      v.path = row.path, v.opened_at = row.opened_at
  RETURN count(v) AS kept
}
CALL {
  UNWIND $resolved AS asset_id
  MATCH (v:Violation {key: $policy_id + '|' + asset_id})
  DELETE v
  RETURN count(*) AS removed
}
RETURN kept, removed
