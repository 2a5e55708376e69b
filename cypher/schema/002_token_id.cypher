// API token ids are unique.
CREATE CONSTRAINT api_token_id IF NOT EXISTS FOR (t:ApiToken) REQUIRE t.id IS UNIQUE
