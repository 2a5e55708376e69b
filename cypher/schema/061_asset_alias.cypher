// A merged-away asset id names the asset it was merged into: one alias node per
// former id, so every read and write by id can follow it with one index seek.
CREATE CONSTRAINT asset_alias_id IF NOT EXISTS FOR (a:AssetAlias) REQUIRE a.id IS UNIQUE
