// Create or replace a batch of quality rules and attach each to its asset. Every
// look at a rule's CHECKS expands from the rule, which MERGE has just locked and which
// has one such edge: a MERGE of the edge would plan an Expand(Into) between rule and
// asset, and that operator's degree-based choice of side has been seen to walk long
// relationship chains for every row, turning a 5,000-rule batch from a second into
// minutes. The far end stays unlabelled (CHECKS only ever points at an asset), so no
// plan can start from a scan of assets either.
UNWIND $rows AS row
MERGE (r:QualityRule {id: row.id})
SET r = row.props
WITH r, row, [(r)-[c:CHECKS]->(other) | {edge: c, asset: other.id}] AS links
FOREACH (link IN [l IN links WHERE l.asset <> row.props.asset_id] | DELETE link.edge)
WITH r, row, any(l IN links WHERE l.asset = row.props.asset_id) AS linked
MATCH (a:Asset {id: row.props.asset_id})
FOREACH (_ IN CASE WHEN linked THEN [] ELSE [1] END | CREATE (r)-[:CHECKS]->(a))
RETURN count(*) AS written
