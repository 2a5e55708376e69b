// Asset lists filter by type often.
CREATE INDEX asset_type IF NOT EXISTS FOR (a:Asset) ON (a.type)
