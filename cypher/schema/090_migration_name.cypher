// One (:Migration {name}) per data migration that has run to its end (the backfills
// of history, asset versions and writers' edge-set indexes): later starts skip it.
CREATE CONSTRAINT migration_name IF NOT EXISTS FOR (m:Migration) REQUIRE m.name IS UNIQUE
