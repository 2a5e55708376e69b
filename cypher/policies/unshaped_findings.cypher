// Data migration (`column_flow_findings`): the policies of kind $kind holding a stored
// violation with a path but no `path_assets`, written before findings kept the asset of
// each step and the step their reason names (`far_end`). Such a path is `asset#column`
// text only and cannot be redacted step by step; evaluating the policy again rewrites
// each of its violations in the current shape (`policies.save_violations`).
MATCH (p:Policy {kind: $kind})
WHERE EXISTS { MATCH (v:Violation {policy_id: p.id})
               WHERE v.path IS NOT NULL AND v.path_assets IS NULL }
RETURN p.id AS id
ORDER BY id
