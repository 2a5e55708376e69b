// One (:AssetTrail {id}) per asset id that ever took part in lineage: the history
// layer's node, apart from the live (:Asset) so present-day reads never touch it.
CREATE CONSTRAINT asset_trail_id IF NOT EXISTS FOR (t:AssetTrail) REQUIRE t.id IS UNIQUE
