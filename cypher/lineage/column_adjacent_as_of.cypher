// lineage.column_adjacent as column lineage stood at $as_of: whether the root's asset
// existed then (as in lineage.traverse_as_of: its newest AssetVersion at or before
// $as_of is not a deletion, or the live asset was created by then and after that
// version, or, gone unversioned, the root column took part in column lineage then),
// its declared columns then (the live asset's when it has not changed since, else that
// version's; none for a placeholder, which records no version), whether the root
// column took part in column lineage then, and every column mapping in effect at $as_of leaving a
// downstream-side column or entering an upstream-side one, with the transformation
// of that moment. One row.
CALL () {
  UNWIND $down_keys AS key
  MATCH (a:ColumnTrail {key: key})-[w:COLUMN_LINEAGE_WAS]->(b:ColumnTrail)
  RETURN a, b, w
  UNION ALL
  UNWIND $up_keys AS key
  MATCH (a:ColumnTrail)-[w:COLUMN_LINEAGE_WAS]->(b:ColumnTrail {key: key})
  RETURN a, b, w
}
// the interval that may hold $as_of: the last to begin by then (see traverse_as_of)
WITH a, b, w, size([s IN w.since WHERE s <= $as_of]) - 1 AS held
WHERE held >= 0 AND $as_of < w.until[held]
WITH collect([a.asset, a.name, b.asset, b.name,
              CASE WHEN w.transformed[held] THEN w.transformation[held] END]) AS edges
CALL () {
  OPTIONAL MATCH (v:AssetVersion {asset_id: $asset})
  WHERE v.at <= $as_of
  RETURN v ORDER BY v.version DESC LIMIT 1
}
OPTIONAL MATCH (asset:Asset {id: $asset})
WITH edges, v, asset,
     EXISTS {
       MATCH (root:ColumnTrail {key: $key})-[w:COLUMN_LINEAGE_WAS]-()
       WHERE size([s IN w.since WHERE s <= $as_of]) > size([u IN w.until WHERE u <= $as_of])
     } AS column_exists
RETURN (v IS NOT NULL AND NOT coalesce(v.deleted, false))
       OR (asset IS NOT NULL AND asset.created_at <= $as_of
           AND (v IS NULL OR v.at < asset.created_at))
       OR (v IS NULL AND asset IS NULL AND column_exists) AS asset_exists,
       CASE WHEN asset.updated_at <= $as_of THEN asset.columns_json
            WHEN NOT coalesce(v.deleted, true) THEN v.columns_json END AS columns_json,
       column_exists,
       edges
