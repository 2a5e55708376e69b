// The asset each rule among $ids names, for the per-domain check that runs before a
// write to the rules (recording results, a dbt run's results): rules that do not exist
// are left out, as the write itself reports them.
UNWIND $ids AS id
MATCH (r:QualityRule {id: id})
RETURN r.id AS id, r.asset_id AS asset_id
