// One stored violation per (policy, asset): `key` is the policy id and the asset id.
CREATE CONSTRAINT violation_key IF NOT EXISTS FOR (v:Violation) REQUIRE v.key IS UNIQUE
