// One record per asset of the newest OpenLineage schema facet applied to it.
CREATE CONSTRAINT dataset_schema_asset IF NOT EXISTS FOR (s:DatasetSchema) REQUIRE s.asset IS UNIQUE
