// One node per writer that may replace its edge set, keyed by its origin: its
// ASSERTS_INTO relationships index the assets its edges point into, so a replace
// walks the writer's own set and never the whole graph.
CREATE CONSTRAINT edge_origin_origin IF NOT EXISTS FOR (o:EdgeOrigin) REQUIRE o.origin IS UNIQUE
