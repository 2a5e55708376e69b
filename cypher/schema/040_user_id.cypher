// User ids are unique; tokens and sessions refer to their user by id.
CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.id IS UNIQUE
