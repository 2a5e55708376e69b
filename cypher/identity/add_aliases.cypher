// Former ids for assets that exist: each [alias, id] row makes `alias` name `id`
// (a dbt source whose table another asset holds). The asset lists it in `aliases`.
UNWIND $rows AS row
MATCH (a:Asset {id: row[1]})
MERGE (al:AssetAlias {id: row[0]})
MERGE (al)-[:ALIAS_OF]->(a)
SET a.aliases = CASE WHEN row[0] IN coalesce(a.aliases, []) THEN a.aliases
                     ELSE coalesce(a.aliases, []) + row[0] END
RETURN count(*) AS added
