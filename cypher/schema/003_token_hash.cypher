// Authentication finds a token by the SHA-256 of its secret: unique and indexed.
CREATE CONSTRAINT api_token_hash IF NOT EXISTS FOR (t:ApiToken) REQUIRE t.hash IS UNIQUE
