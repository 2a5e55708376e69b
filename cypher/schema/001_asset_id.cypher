// Asset ids are unique; the backing range index serves look-ups and id-ordered pages.
CREATE CONSTRAINT asset_id IF NOT EXISTS FOR (a:Asset) REQUIRE a.id IS UNIQUE
