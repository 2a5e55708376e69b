// Delete the rules that check an asset, with their result histories; answers the
// rules as they were, for the events that say so.
MATCH (:Asset {id: $asset_id})<-[:CHECKS]-(r:QualityRule)
WITH r, r {.*} AS rule
OPTIONAL MATCH (r)<-[:RESULT_OF]-(res:QualityResult)
DETACH DELETE res
WITH DISTINCT r, rule
DETACH DELETE r
RETURN rule
ORDER BY rule.id
