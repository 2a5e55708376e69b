// One version per (asset id, number): two writers racing to record the same number
// cannot both succeed (the second fails and starts again).
CREATE CONSTRAINT asset_version_key IF NOT EXISTS FOR (v:AssetVersion) REQUIRE (v.asset_id, v.version) IS UNIQUE
