// Which of the ids name no asset (for ?strict=true), and which are former ids
// (aliases), with the asset each names now.
UNWIND $ids AS id
OPTIONAL MATCH (a:Asset {id: id})
OPTIONAL MATCH (:AssetAlias {id: id})-[:ALIAS_OF]->(current:Asset)
WITH id, a, current
RETURN collect(CASE WHEN a IS NULL AND current IS NULL THEN id END) AS missing,
       collect(CASE WHEN current IS NOT NULL THEN [id, current.id] END) AS aliased
