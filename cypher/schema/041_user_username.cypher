// Usernames are unique ignoring case: `login_key` is the lower-cased username.
CREATE CONSTRAINT user_login_key IF NOT EXISTS FOR (u:User) REQUIRE u.login_key IS UNIQUE
