// One level of the walk downstream of a candidate manifest's breaking changes
// (service.domain.impact_walk keeps what was seen, so each node is read once):
// - from each whole asset of the frontier ($assets), every asset it feeds;
// - from each column ($columns: asset, column, key), the columns derived from it
//   (COLUMN_LINEAGE), and, as whole assets, the assets its asset feeds without any
//   column lineage from that asset: nothing says which of its columns they read.
// The third part gathers the frontier's columns per asset first, so the column lineage
// leaving an asset is read once however many of its columns are in the frontier.
// Each row: the frontier node, the node reached (target_column null: the whole asset)
// and the reached asset's owners.
CALL () {
  UNWIND $assets AS id
  MATCH (:Asset {id: id})-[:LINEAGE]->(b:Asset)
  RETURN id AS source_asset, null AS source_column, b.id AS target_asset,
         null AS target_column, b.owners AS owners
  UNION ALL
  UNWIND $columns AS c
  MATCH (:Column {key: c.key})-[:COLUMN_LINEAGE]->(d:Column)<-[:HAS_COLUMN]-(b:Asset)
  RETURN c.asset AS source_asset, c.column AS source_column, b.id AS target_asset,
         d.name AS target_column, b.owners AS owners
  UNION ALL
  UNWIND $columns AS c
  WITH c.asset AS id, collect(c.column) AS names
  MATCH (a:Asset {id: id})
  WITH a, names,
       COLLECT { MATCH (a)-[:HAS_COLUMN]->(:Column)-[:COLUMN_LINEAGE]->(:Column)<-[:HAS_COLUMN]-(t:Asset)
                 RETURN DISTINCT t } AS covered
  MATCH (a)-[:LINEAGE]->(b:Asset)
  WHERE NOT b IN covered
  UNWIND names AS name
  RETURN a.id AS source_asset, name AS source_column, b.id AS target_asset,
         null AS target_column, b.owners AS owners
}
RETURN source_asset, source_column, target_asset, target_column, owners
