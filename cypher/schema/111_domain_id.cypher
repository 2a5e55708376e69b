// Domain ids are unique slugs; assets name their domain by id (`a.domain`).
CREATE CONSTRAINT domain_id IF NOT EXISTS FOR (d:Domain) REQUIRE d.id IS UNIQUE
