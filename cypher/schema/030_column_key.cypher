// Column keys (asset id + newline + column name) are unique; the backing range index
// seeks a traversal's root column and, by prefix, every column of one asset.
CREATE CONSTRAINT column_key IF NOT EXISTS FOR (c:Column) REQUIRE c.key IS UNIQUE
