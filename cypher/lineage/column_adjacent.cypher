// The root of a column traversal (does its asset exist, the asset's declared columns,
// does the column take part in column lineage) and, as one list, every column edge
// leaving a downstream-side column and entering an upstream-side one: a superset of
// the edges among the returned columns, linear in their degree. One row.
CALL () {
  UNWIND $down_keys AS key
  MATCH (a:Column {key: key})-[r:COLUMN_LINEAGE]->(b:Column)
  RETURN a.asset AS source_asset, a.name AS source_column, b.asset AS target_asset,
         b.name AS target_column, r.transformation AS transformation
  UNION ALL
  UNWIND $up_keys AS key
  MATCH (a:Column)-[r:COLUMN_LINEAGE]->(b:Column {key: key})
  RETURN a.asset AS source_asset, a.name AS source_column, b.asset AS target_asset,
         b.name AS target_column, r.transformation AS transformation
}
WITH collect([source_asset, source_column, target_asset, target_column, transformation]) AS edges
OPTIONAL MATCH (asset:Asset {id: $asset})
OPTIONAL MATCH (root:Column {key: $key})
RETURN asset IS NOT NULL AS asset_exists, asset.columns_json AS columns_json,
       root IS NOT NULL AS column_exists, edges
