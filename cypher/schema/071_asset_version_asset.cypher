// An asset's versions by its id alone (history as of an instant, the backfill's "has
// none yet"): the (asset_id, version) constraint's index only serves predicates on both.
CREATE INDEX asset_version_asset IF NOT EXISTS FOR (v:AssetVersion) ON (v.asset_id)
