// Delete a policy and its stored violations; answers the violations, which the
// caller announces as resolved.
MATCH (p:Policy {id: $id})
OPTIONAL MATCH (v:Violation {policy_id: $id})
WITH p, collect(v) AS open
WITH p, open, [v IN open | v {.asset_id, .reason, .path, .path_assets, .far_end, .opened_at,
                        .hidden_ids, .hidden_in}] AS violations
FOREACH (v IN open | DELETE v)
DETACH DELETE p
RETURN violations
