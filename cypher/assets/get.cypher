// One asset by id, or by a former id that a merge left as its alias.
OPTIONAL MATCH (direct:Asset {id: $id})
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(aliased:Asset)
WITH coalesce(direct, aliased) AS a
WHERE a IS NOT NULL
RETURN a {.*} AS asset
