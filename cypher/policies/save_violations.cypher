// Store an evaluation: upsert the open violations, delete the resolved ones, stamp
// the policy. Rows are {asset_id, reason, path, path_assets, far_end, opened_at}.
// Each record keeps its path's assets in private domains, and theirs (`hidden_ids`,
// `hidden_in`): announcing it resolved once such an asset is deleted still hides it.
MATCH (p:Policy {id: $policy_id})
SET p.evaluated_at = $now
WITH p
CALL () {
  UNWIND $open AS row
  MERGE (v:Violation {key: $policy_id + '|' + row.asset_id})
  SET v.policy_id = $policy_id, v.asset_id = row.asset_id, v.reason = row.reason,
      v.path = row.path, v.path_assets = row.path_assets, v.far_end = row.far_end,
      v.opened_at = row.opened_at
  WITH v, COLLECT { UNWIND coalesce(row.path_assets, row.path, []) AS id
                    MATCH (a:Asset {id: id}) WHERE a.domain_private
                    RETURN DISTINCT [a.id, a.domain] } AS hidden
  SET v.hidden_ids = [h IN hidden | h[0]], v.hidden_in = [h IN hidden | h[1]]
  RETURN count(v) AS kept
}
CALL () {
  UNWIND $resolved AS asset_id
  MATCH (v:Violation {key: $policy_id + '|' + asset_id})
  DELETE v
  RETURN count(*) AS removed
}
RETURN kept, removed
