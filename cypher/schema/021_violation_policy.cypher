// A policy's violations are read and reconciled together.
CREATE INDEX violation_policy IF NOT EXISTS FOR (v:Violation) ON (v.policy_id, v.asset_id)
