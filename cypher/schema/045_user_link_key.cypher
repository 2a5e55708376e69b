// A provider identity (issuer and subject) belongs to at most one user: two first
// sign-ins racing cannot make two.
CREATE CONSTRAINT user_link_key IF NOT EXISTS FOR (u:User) REQUIRE u.link_key IS UNIQUE
