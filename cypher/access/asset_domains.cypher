// The domain of each asset among $ids that exists, reached by its id or a former id
// (an alias a merge left), and whether that domain is private: one statement for a
// whole batch, read before a write so a refused request writes nothing, and before a
// read that must hide a private domain's asset. Ids naming no asset are left out.
UNWIND $ids AS given
OPTIONAL MATCH (direct:Asset {id: given})
OPTIONAL MATCH (:AssetAlias {id: given})-[:ALIAS_OF]->(aliased:Asset)
WITH given, coalesce(direct, aliased) AS a
WHERE a IS NOT NULL
RETURN given AS id, a.domain AS domain, coalesce(a.domain_private, false) AS private
