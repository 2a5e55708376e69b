// A dashboard session is found by the SHA-256 of its cookie value: unique and indexed.
CREATE CONSTRAINT session_hash IF NOT EXISTS FOR (s:Session) REQUIRE s.hash IS UNIQUE
