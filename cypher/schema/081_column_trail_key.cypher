// One (:ColumnTrail {key}) per column that ever took part in column lineage (key as
// Column.key: asset id + newline + name); the range index behind it also seeks an
// asset's columns by key prefix.
CREATE CONSTRAINT column_trail_key IF NOT EXISTS FOR (t:ColumnTrail) REQUIRE t.key IS UNIQUE
