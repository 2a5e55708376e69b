// Mirror declared column tags onto the (:Column) nodes that column lineage walks:
// a tagged column gets its node (hung off its asset, as lineage.merge_columns does);
// an empty list removes the property (the node stays: lineage may use it).
UNWIND $rows AS row
MATCH (a:Asset {id: row.asset})
MERGE (c:Column {key: row.key})
  ON CREATE SET c.asset = row.asset, c.name = row.name
MERGE (a)-[:HAS_COLUMN]->(c)
SET c.tags = CASE WHEN size(row.tags) = 0 THEN null ELSE row.tags END
RETURN count(c) AS written
