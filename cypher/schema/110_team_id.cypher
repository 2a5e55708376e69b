// Team ids are unique slugs; memberships, domain owners and grants refer to them.
CREATE CONSTRAINT team_id IF NOT EXISTS FOR (t:Team) REQUIRE t.id IS UNIQUE
