// Every stored violation of one policy (the state a fresh evaluation is diffed against).
MATCH (v:Violation {policy_id: $policy_id})
RETURN v.asset_id AS asset_id, v.reason AS reason, v.path AS path, v.opened_at AS opened_at
