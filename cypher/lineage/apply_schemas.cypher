// Columns from OpenLineage `schema` facets. Per dataset, only the newest event's
// facet (by eventTime; the same time again applies again) replaces the asset's
// columns, so events arriving late or twice converge. The time is kept on a
// (:DatasetSchema {asset}) node beside the asset, locked before it is read. An asset
// whose columns changed gets a new version and is returned for its asset.updated event.
UNWIND $rows AS row
MERGE (s:DatasetSchema {asset: row.id})
  ON MATCH SET s._lock = true
REMOVE s._lock
WITH s, row
WHERE s.event_time IS NULL OR row.event_time >= s.event_time
SET s.event_time = row.event_time
WITH row
MATCH (a:Asset {id: row.id})
WHERE coalesce(a.columns_json, '') <> row.columns_json
SET a.columns_json = row.columns_json, a.version = a.version + 1, a.updated_at = $now
RETURN collect(a {.*}) AS updated
