// Every stored violation of one policy (the state a fresh evaluation is diffed against).
MATCH (v:Violation {policy_id: $policy_id})
RETURN v.asset_id AS asset_id, v.reason AS reason, v.path AS path,
       v.path_assets AS path_assets, v.far_end AS far_end, v.opened_at AS opened_at,
       v.hidden_ids AS hidden_ids, v.hidden_in AS hidden_in
